import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { Marketplace } from './marketplace.js';
import { eventually } from './test-environment.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const WEB_PUBLIC_DIST = join(ROOT, 'web-public', 'dist');
export const ARTIFACTS = join(ROOT, 'test', 'artifacts');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

export interface WebServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The built public site as a production host serves it: hashed assets cached for good and
 * compressed, every other address answered with index.html, and `/api` passed to the API.
 */
export async function serveWebPublic(apiBaseUrl: string): Promise<WebServer> {
  if (!existsSync(join(WEB_PUBLIC_DIST, 'index.html'))) {
    throw new Error('web-public is not built: run `npm run build:web`');
  }
  const api = new URL(apiBaseUrl);
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) {
      const upstream = httpRequest(
        {
          host: api.hostname,
          port: api.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: api.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => {
        if (!response.headersSent) response.writeHead(502);
        response.end();
      });
      request.pipe(upstream);
      return;
    }
    const relative = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(WEB_PUBLIC_DIST, relative);
    const isFile = file.startsWith(WEB_PUBLIC_DIST) && existsSync(file) && statSync(file).isFile();
    if (!isFile) file = join(WEB_PUBLIC_DIST, 'index.html');
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const headers: Record<string, string> = {
      'content-type': type,
      'cache-control': relative.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    const compress =
      /text|json|svg/.test(type) && /\bgzip\b/.test(String(request.headers['accept-encoding']));
    if (compress) headers['content-encoding'] = 'gzip';
    response.writeHead(200, headers);
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    const stream = createReadStream(file);
    (compress ? stream.pipe(createGzip()) : stream).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

const AXE_SOURCE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.1 AA rules). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"')))
    await page.addScriptTag({ content: AXE_SOURCE });
  const violations = (await page.evaluate(`
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
      .then((result) => result.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')),
      })))
  `)) as AxeViolation[];
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/**
 * Waits until the read model behind the public lists holds `count` coupons (the projection runs
 * in the workers). It asks the table, not `GET /api/coupons`, so no list is cached before the
 * browser asks for it.
 */
export async function untilAllListed(market: Marketplace, count: number) {
  const listedNow = async () => {
    const [{ total }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS total FROM coupon_listings WHERE expires_at > now()',
    );
    return total as number;
  };
  try {
    await eventually(async () => (await listedNow()) >= count, `${count} coupons to be listed`, 60_000);
  } catch (error) {
    const outbox = await market.api.dataSource
      .query(
        `SELECT count(*) FILTER (WHERE published_at IS NULL)::int AS unpublished, count(*) FILTER (WHERE processed_at IS NULL)::int AS unprocessed, count(*)::int AS events FROM outbox`,
      )
      .catch(() => 'unknown');
    throw new Error(
      `${(error as Error).message}; listed ${await listedNow()}, outbox ${JSON.stringify(outbox)}`,
    );
  }
}
