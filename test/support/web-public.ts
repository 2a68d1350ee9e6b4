import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateEnvironment } from '@offers/api/platform';
import type { DestinationStream } from 'pino';
import type { Page, Response } from 'playwright-core';
import { createWebServer } from '../../web-public/server/web-server.js';
import type { WebApp } from './browser.js';
import type { Marketplace } from './marketplace.js';
import { eventually } from './test-environment.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const AXE_SOURCE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * Opens an address of the site and waits until the React app has taken over the server's HTML
 * (`<html data-hydrated>`): before then a click does nothing and what a test adds is replaced.
 */
export async function visit(page: Page, address: string): Promise<Response | null> {
  const response = await page.goto(address);
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
  return response;
}

/** Loads the page again and waits, as `visit` does, for the app to take over. */
export async function reload(page: Page): Promise<void> {
  await page.reload();
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
}

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.1 AA rules). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated by the browser's debugging protocol: the site's security policy refuses inline scripts.
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE_SOURCE);
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

/** Where the test site says it lives: canonical addresses, sitemaps and link previews name it. */
export const TEST_PUBLIC_URL = 'https://offers.example.in';

/**
 * The public site as a host runs it (`npm run serve:web`): its own server on the production build,
 * rendering pages from the marketplace's read models and forwarding /api to its API.
 */
export async function serveSite(
  market: Pick<Marketplace, 'test' | 'api'>,
  options: {
    sitemapLimit?: number;
    /** The site's address (https unless said: the site sends HSTS then). */
    publicUrl?: string;
    /** Told of each request that reaches Fastify's routing (not of pages sent before it). */
    routed?: (url: string) => void;
    /** Told of each page rendered, by its canonical address. */
    rendered?: (address: string) => void;
    pageCache?: { maxPages?: number; maxApartPages?: number; maxBytes?: number };
    /** Where the server's log lines go (it logs nothing without). */
    logDestination?: DestinationStream;
    /** Settings that differ from the marketplace's (LOG_LEVEL, say). */
    settings?: Record<string, string>;
  } = {},
): Promise<WebApp & { operationsUrl: string }> {
  const environment = validateEnvironment({
    ...market.test.variables,
    API_UPSTREAM_URL: market.api.baseUrl,
    ...options.settings,
  });
  let operationsUrl = '';
  const server = await createWebServer({
    environment,
    publicUrl: options.publicUrl ?? TEST_PUBLIC_URL,
    sitemapLimit: options.sitemapLimit,
    rendered: options.rendered,
    pageCache: options.pageCache,
    logDestination: options.logDestination,
    // Its health and metrics on a free port of their own.
    operations: {
      port: 0,
      host: '127.0.0.1',
      listening: (url) => {
        operationsUrl = url;
      },
    },
  });
  const { routed } = options;
  if (routed) server.addHook('onRequest', async (request) => routed(request.url));
  await server.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, operationsUrl, close: () => server.close() };
}
