import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Where the back-office lives on the site in production: its build's `base` (see
 * web-backoffice/vite.config.ts), so its files, its index and its `/api` calls share the site's
 * origin and the API's session cookie stays first-party.
 */
export const BACK_OFFICE_PATH = '/back-office/';

/**
 * Serves the back-office's production build (web-backoffice/dist) under {@link BACK_OFFICE_PATH}:
 * its hashed files kept by browsers for good, its index.html revalidated on every load (a new
 * release names new files), and any other address under the path answered with that index (the
 * app routes in the browser). Nothing is served when the build is missing; the log says so.
 */
export async function serveBackOffice(app: FastifyInstance, dist: string): Promise<boolean> {
  const indexFile = join(dist, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn(`No back-office build at ${dist}: ${BACK_OFFICE_PATH} is not served (npm run build:web).`);
    return false;
  }
  const index = await readFile(indexFile);
  const sendIndex = (reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      // The staff's app is nobody's search result.
      .header('x-robots-tag', 'noindex')
      .send(index);
  await app.register(fastifyStatic, {
    root: dist,
    prefix: BACK_OFFICE_PATH,
    // The site's own files are served by the first registration.
    decorateReply: false,
    index: false,
    // A route per file found at start-up: any other address is the app's (sendIndex below).
    wildcard: false,
    setHeaders: (response, path) => {
      response.header(
        'cache-control',
        path.startsWith(join(dist, 'assets'))
          ? 'public, max-age=31536000, immutable'
          : path === indexFile
            ? 'no-cache'
            : 'public, max-age=86400',
      );
    },
  });
  const base = BACK_OFFICE_PATH.slice(0, -1);
  app.get(base, (_request, reply) => reply.redirect(BACK_OFFICE_PATH, 301));
  app.get(BACK_OFFICE_PATH, (_request, reply) => sendIndex(reply));
  app.get(`${BACK_OFFICE_PATH}*`, (_request, reply) => sendIndex(reply));
  // A file of another release is missing, not a page: the browser must not take the index for it.
  app.get(`${BACK_OFFICE_PATH}assets/*`, (_request, reply) =>
    reply.status(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not found'),
  );
  return true;
}
