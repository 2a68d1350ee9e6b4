import { createReadStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGzip } from 'node:zlib';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const ARTIFACTS = join(REPO_ROOT, 'test', 'artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** The `base` a web app's production build is made for (its vite.config.ts). */
const BASES: Record<string, string> = { 'web-backoffice': '/back-office/' };

export interface WebApp {
  url: string;
  close(): Promise<void>;
}

function proxy(apiBaseUrl: string, incoming: IncomingMessage, outgoing: ServerResponse) {
  const target = new URL(incoming.url ?? '/', apiBaseUrl);
  const forwarded = httpRequest(
    target,
    {
      method: incoming.method,
      // As a production proxy does: the API learns the site's own origin (trusted from loopback),
      // so the browser's same-origin requests pass its cross-site check.
      headers: {
        ...incoming.headers,
        host: target.host,
        'x-forwarded-host': incoming.headers.host ?? '',
        'x-forwarded-proto': 'http',
      },
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forwarded.on('error', () => {
    outgoing.writeHead(502).end();
  });
  incoming.pipe(forwarded);
}

/**
 * A web app's production build as a production host serves it: hashed assets cached for good and
 * compressed, index.html for any other address, /api forwarded to the API (same origin, so its
 * cookies apply). `dist` serves another build of the app instead (a development build, say).
 */
export async function serveWebApp(
  app: string,
  apiBaseUrl: string,
  dist = join(REPO_ROOT, app, 'dist'),
): Promise<WebApp> {
  if (!existsSync(join(dist, 'index.html'))) {
    throw new Error(`${app}/dist is missing: run \`npm run build -w ${app}\` (npm test builds it).`);
  }
  const server = createServer((incoming, outgoing) => {
    const address = decodeURIComponent(new URL(incoming.url ?? '/', 'http://local').pathname);
    if (address.startsWith('/api/') || address === '/api') return proxy(apiBaseUrl, incoming, outgoing);
    // The build names its files under its base (the back-office's /back-office/, as the site's
    // server serves it); here the app is also reachable at the root.
    const base = BASES[app];
    const path = base && address.startsWith(base) ? address.slice(base.length - 1) : address;
    const requested = normalize(join(dist, path));
    const isFile = requested.startsWith(dist) && existsSync(requested) && statSync(requested).isFile();
    const file = isFile ? requested : join(dist, 'index.html');
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const compress =
      /text|json|svg/.test(type) && /\bgzip\b/.test(String(incoming.headers['accept-encoding']));
    outgoing.writeHead(200, {
      'content-type': type,
      'cache-control':
        isFile && path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(compress && { 'content-encoding': 'gzip' }),
    });
    if (incoming.method === 'HEAD') return outgoing.end();
    const stream = createReadStream(file);
    (compress ? stream.pipe(createGzip()) : stream).pipe(outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The system's Chromium, never a downloaded one. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** Serious and critical accessibility violations of the page as it is now (WCAG 2 A/AA rules). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Elements still fading in (a notification, a dialog) are checked at their final colours, not
  // half way: a busy machine slows the transitions down. Endless ones (spinners) are not awaited.
  await page
    .waitForFunction(
      `document.getAnimations().every((animation) =>
         animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity)`,
      undefined,
      { timeout: 5000 },
    )
    .catch(() => undefined);
  await page.addScriptTag({ content: axeSource });
  // A string, because the test code is type-checked without the DOM's types.
  const violations = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
       .then((result) => result.violations)`,
  )) as AxeViolation[];
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
    }));
}

/** A screenshot of the whole page under test/artifacts/, named after the step; never fails the step. */
async function keepScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name.replace(/[^a-z0-9-]+/gi, '-')}.png`);
  await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
}

/**
 * Runs a step; on failure keeps a screenshot under test/artifacts/ and rethrows. With
 * `TEST_SCREENSHOTS=1` it keeps one of every step as it ends, to look the screens over.
 */
export async function step<T>(page: Page, name: string, action: () => Promise<T>): Promise<T> {
  try {
    const result = await action();
    if (process.env.TEST_SCREENSHOTS === '1') await keepScreenshot(page, name);
    return result;
  } catch (error) {
    await keepScreenshot(page, name);
    throw error;
  }
}

/**
 * Runs the steps on a new page of a fresh context (a visitor with no cookies), then closes it; on
 * failure keeps a screenshot under test/artifacts/, as `step` does.
 */
export async function inContext(
  context: BrowserContext,
  name: string,
  steps: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  try {
    await step(page, name, () => steps(page, context));
  } finally {
    await context.close();
  }
}
