import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import proxy from '@fastify/http-proxy';
import fastifyStatic from '@fastify/static';
import type { Environment } from '@offers/api/config/environment';
import { HOME_CONTENT_CHANNEL } from '@offers/api/content/events/content-events';
import { LISTINGS_CHANNEL } from '@offers/api/coupons/events/coupon-events';
import { CouponListings } from '@offers/api/coupons/queries/listings';
import { ReadyCache } from '@offers/api/events/ready-cache';
import { serverAnsweringFirst } from '@offers/api/http/server-answering-first';
import { isUnreadableAddress } from '@offers/api/http/unreadable-text';
import { nextMarketMidnight } from '@offers/api/rules/coupons';
import { HTTP_MESSAGES } from '@offers/api/rules/http';
import { STORE_PAGES_CHANNEL } from '@offers/api/storefront/events/storefront-events';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { robotsTxt, SITEMAP_LIMIT, sitemapEntries, sitemapFiles } from './crawler-files.js';
import { type Moved, type ReadyDocument, renderDocument, sendDocument } from './documents.js';
import { serveImages } from './image-cache.js';
import { readModelFetcher } from './read-models.js';
import { developmentRenderer, productionRenderer, type Renderer } from './renderer.js';
import { SECURITY_HEADERS, transportSecurityHeaders } from './security-headers.js';

export const WEB_ROOT = fileURLToPath(new URL('../', import.meta.url)).replace(
  /\/dist\/web-public\/$/,
  '/web-public/',
);

/** Longest a rendered page is kept: the popular order follows reveals within this. */
const MAX_AGE_MS = 60_000;
const MAX_PAGES = 2_000;

export interface WebServerOptions {
  environment: Environment;
  /** Vite in middleware mode (hot reload, no build) instead of the production build. */
  development?: boolean;
  /** The site's public origin for canonical addresses, sitemaps and link previews. */
  publicUrl?: string;
  /** Addresses per sitemap file (the protocol allows 50,000). */
  sitemapLimit?: number;
  logger?: boolean;
}

/** The answer to an address with a NUL or bytes that are not UTF-8: a short page, never kept. */
function unreadableAddress(reply: FastifyReply) {
  return reply
    .status(400)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>Offers Marketplace</title><p>${HTTP_MESSAGES.unreadableText}</p></html>`,
    );
}

/** The language a returning visitor chose (its cookie), which sends them from `/` to its home. */
function chosenLanguage(cookie: string | undefined): string | undefined {
  return cookie === undefined ? undefined : /(?:^|;\s*)language=(hi|te)(?:;|$)/.exec(cookie)?.[1];
}

/**
 * The public site's server: every page rendered from the read models as complete HTML (kept ready
 * until a change notification or a coupon's expiry), the browser build's files, robots.txt and the
 * sitemap, and `/api` forwarded to the API so cookies stay first-party (its images kept in memory).
 */
export async function createWebServer(options: WebServerOptions): Promise<FastifyInstance> {
  const { environment } = options;
  const development = options.development ?? false;
  const publicUrl = (options.publicUrl ?? environment.PUBLIC_URL).replace(/\/$/, '');
  const dataSource = new DataSource({
    type: 'postgres',
    url: environment.DATABASE_URL,
    entities: [],
    extra: { max: 10, application_name: 'web-public' },
  });
  await dataSource.initialize();
  const renderer: Renderer = development
    ? await developmentRenderer(WEB_ROOT)
    : await productionRenderer(WEB_ROOT);
  const fetch = readModelFetcher(dataSource);
  const listings = new CouponListings(dataSource);

  const siteHeaders = { ...SECURITY_HEADERS, ...transportSecurityHeaders(publicUrl) };
  let readyPages = false;
  const app = Fastify({
    // A path Fastify's router cannot decode (`/store/%ED%A0%80`) is the same 400 as below.
    frameworkErrors: (error, _request, reply) => {
      const answer = reply as unknown as FastifyReply;
      if (error.code === 'FST_ERR_BAD_URL') return unreadableAddress(answer);
      return answer.status(error.statusCode ?? 400).send({ message: error.message });
    },
    logger: options.logger ?? false,
    trustProxy: 'loopback',
    // A page kept ready is sent before Fastify makes its request and reply, runs its hooks and
    // routes: that would cost most of the request's time and add nothing the page's own header
    // block does not hold. Anything else, and everything once the server is closing, is Fastify's.
    serverFactory: serverAnsweringFirst((request, response) => {
      if (!readyPages || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
      const url = request.url ?? '/';
      if ((url === '/' || url.startsWith('/?')) && chosenLanguage(request.headers.cookie)) return false;
      const document = pages.peek(url);
      if (document === undefined || 'redirect' in document) return false;
      sendDocument(document, request, response);
      return true;
    }),
  });
  const pages = new ReadyCache<ReadyDocument | Moved>(
    environment.DATABASE_URL,
    [LISTINGS_CHANNEL, HOME_CONTENT_CHANNEL, STORE_PAGES_CHANNEL],
    { warn: (message) => app.log.warn(message) },
    { maxEntries: MAX_PAGES, maxAgeMs: MAX_AGE_MS },
  );
  const crawlerFiles = new ReadyCache<{ index: string; parts: string[] }>(
    environment.DATABASE_URL,
    [LISTINGS_CHANNEL, STORE_PAGES_CHANNEL],
    { warn: (message) => app.log.warn(message) },
    { maxEntries: 1, maxAgeMs: MAX_AGE_MS },
  );
  pages.start();
  crawlerFiles.start();
  readyPages = !development;
  app.addHook('preClose', (done) => {
    readyPages = false;
    done();
  });
  app.addHook('onClose', async () => {
    await Promise.all([pages.stop(), crawlerFiles.stop(), renderer.vite?.close()]);
    await dataSource.destroy();
  });

  await app.register(compress, { global: true, encodings: ['br', 'gzip'] });
  // No page or read model holds a NUL or half a surrogate pair: such an address is refused at once,
  // before it reaches a query (PostgreSQL refuses a NUL) or the API (which refuses it the same way).
  app.addHook('onRequest', async (request, reply) => {
    if (isUnreadableAddress(request.raw.url ?? '/')) return unreadableAddress(reply);
  });
  app.addHook('onSend', async (_request, reply) => {
    // A stricter policy the API chose keeps: its click-outs tell the store nothing of our addresses.
    const apiReferrerPolicy = reply.getHeader('referrer-policy');
    reply.headers(siteHeaders);
    if (apiReferrerPolicy === 'no-referrer') reply.header('referrer-policy', apiReferrerPolicy);
  });

  serveImages(app, environment.API_UPSTREAM_URL);
  await app.register(proxy, {
    upstream: environment.API_UPSTREAM_URL,
    prefix: '/api',
    rewritePrefix: '/api',
    // The API trusts this server (loopback) to say who is asking: rate limits count the shopper.
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => ({
        ...headers,
        'x-forwarded-for': [headers['x-forwarded-for'], request.ip].filter(Boolean).join(', '),
        'x-forwarded-host': request.headers.host ?? '',
        'x-forwarded-proto': request.protocol,
      }),
    },
  });

  if (development) {
    const middie = (await import('@fastify/middie')).default;
    await app.register(middie);
    app.use(renderer.vite!.middlewares);
  } else {
    await app.register(fastifyStatic, {
      root: join(WEB_ROOT, 'dist', 'client'),
      index: false,
      wildcard: false,
      // Hashed file names change with their content: browsers keep them for good.
      setHeaders: (response, path) => {
        response.header(
          'cache-control',
          path.includes(`${join('dist', 'client', 'assets')}`)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=86400',
        );
      },
    });
  }

  app.get('/robots.txt', async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(robotsTxt(publicUrl)),
  );

  const sitemaps = () =>
    crawlerFiles.get('sitemap', async () => ({
      value: sitemapFiles(await sitemapEntries(dataSource), publicUrl, options.sitemapLimit ?? SITEMAP_LIMIT),
    }));
  app.get('/sitemap.xml', async (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send((await sitemaps()).index),
  );
  app.get<{ Params: { part: string } }>('/sitemaps/:part', async (request, reply) => {
    const number = /^([1-9]\d{0,4})\.xml$/.exec(request.params.part)?.[1];
    const part = number ? (await sitemaps()).parts[Number(number) - 1] : undefined;
    if (!part) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-cache').send(part);
  });

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url;
    const path = url.split('?')[0]!;
    // One address per page: no trailing slash except a language's home (`/hi/`).
    if (/^\/(hi|te)$/.test(path)) return reply.redirect(`${path}/${url.slice(path.length)}`, 301);
    if (path.length > 1 && path.endsWith('/') && !/^\/(hi|te)\/$/.test(path)) {
      return reply.redirect(`${path.replace(/\/+$/, '') || '/'}${url.slice(path.length)}`, 301);
    }
    // A returning visitor who chose Hindi or Telugu goes from `/` to that language's home.
    if (path === '/') {
      reply.header('vary', 'Cookie');
      const chosen = chosenLanguage(request.headers.cookie);
      if (chosen) return reply.redirect(`/${chosen}/${url.slice(1)}`, 302);
    }
    const render = () => renderDocument({ renderer, fetch, url, publicUrl, development });
    // In development the sources change under the server: every request renders afresh. An account
    // form's address may carry a secret (a reset link's token): such a page is never kept.
    const entry = await renderer.entry();
    const personal = url.includes('?') && entry.isPrivate(entry.matchPage(entry.splitLanguage(path).path));
    const document =
      development || personal
        ? await render()
        : await pages.get(url, async () => {
            const [value, nextExpiry] = await Promise.all([render(), listings.nextExpiry()]);
            // Cards say when offers end in words ("Ends today"), which change at India's midnight.
            return {
              value,
              validUntil: Math.min(nextExpiry ?? Number.POSITIVE_INFINITY, nextMarketMidnight()),
            };
          });
    if ('redirect' in document) return reply.redirect(document.redirect, document.status);
    // Its header block is the page's own, as when it is sent before Fastify (no onSend hooks).
    reply.hijack();
    sendDocument(document, request.raw, reply.raw);
  };
  // A page that cannot be rendered now (the database away) is a short HTML answer to retry, not JSON.
  app.setErrorHandler(async (error: Error & { statusCode?: number }, request, reply) => {
    if ((error.statusCode ?? 500) < 500) return reply.status(error.statusCode!).send(error);
    request.log.error(error);
    return reply
      .status(503)
      .header('retry-after', '5')
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><html lang="en"><meta charset="utf-8"><title>Offers Marketplace</title>' +
          '<p>The site is busy for a moment. Please try again in a few seconds.</p></html>',
      );
  });
  app.get('/*', page);
  app.get('/', page);

  return app;
}
