/**
 * The public site's performance budget, measured in Chromium on the production build served
 * locally (compressed, as a host would) against the real API and workers with the demo seeds
 * (`demoContentSeed`, `demoCouponsSeed`), the page reading the real GET /api/home: the home page's
 * JavaScript gzipped (budget 90 KB), everything it transfers (400 KB) and its Largest Contentful
 * Paint (1.0 s), plus which chunks load, to show that other routes stay out of the home page.
 *
 *   npm run bench:web [-- --runs N]
 *
 * Works in a database and a Redis prefix of its own, both removed at the end. Prints figures and
 * exits 0 whatever they are; non-zero only when the run itself fails.
 */
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { demoContentSeed, demoCouponsSeed } from '@offers/api/demo';
import { homeContentDocument } from '@offers/api/read-models';
import { launchBrowser } from '../../test/support/browser.js';
import { type Marketplace, startMarketplace } from '../../test/support/marketplace.js';
import { eventually } from '../../test/support/test-environment.js';
import { serveSite, untilAllListed } from '../../test/support/web-public.js';
import { median } from '../shared.js';

const BUDGET = { homeJsKb: 90, transferKb: 400, lcpMs: 1000 };
/** What the demo seeds make: 18 live coupons and three hero slides. */
const DEMO = { coupons: 18, heroes: 3 };

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Math.max(1, Number(values.runs) || 5);

/** The demo marketplace of `npm start`, built by the workers from the seeds' events. */
async function seedDemo(market: Marketplace) {
  const { dataSource } = market.api;
  await demoContentSeed.run(dataSource, market.test.environment);
  await demoCouponsSeed.run(dataSource, market.test.environment);
  await untilAllListed(market, DEMO.coupons);
  await eventually(
    async () => {
      const document = await homeContentDocument(dataSource);
      return document?.heroes.length === DEMO.heroes;
    },
    'the home content to be built',
    60_000,
  );
}

interface Measurement {
  jsGzipKb: number;
  transferKb: number;
  lcpMs: number;
  lcpElement: string;
  requests: number;
  scripts: string[];
  largest: string[];
}

async function measureHome(
  siteUrl: string,
  browser: Awaited<ReturnType<typeof launchBrowser>>,
): Promise<Measurement> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(`
    window.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        window.__lcp = entry.startTime;
        window.__lcpEntry = entry;
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  `);
  const responses: Array<Promise<{ url: string; type: string; transfer: number; gzip: number }>> = [];
  page.on('requestfinished', (request) => {
    responses.push(
      (async () => {
        const response = await request.response();
        const sizes = await request.sizes();
        const body = response ? await response.body().catch(() => Buffer.alloc(0)) : Buffer.alloc(0);
        return {
          url: request.url(),
          type: request.resourceType(),
          transfer: sizes.responseBodySize + sizes.responseHeadersSize,
          gzip: gzipSync(body).length,
        };
      })(),
    );
  });
  await page.goto(siteUrl, { waitUntil: 'networkidle' });
  // LCP is final once the page was interacted with or hidden; a short wait lets late images land.
  await page.waitForTimeout(500);
  const lcpMs = Number(await page.evaluate('window.__lcp'));
  const lcpElement = String(
    await page.evaluate(`(() => {
      const last = window.__lcpEntry;
      if (!last) return '?';
      if (last.url) return 'image ' + new URL(last.url).pathname.slice(0, 24) + '... ' + new URL(last.url).search;
      return last.element ? last.element.tagName.toLowerCase() : 'text';
    })()`),
  );
  const loaded = await Promise.all(responses);
  await context.close();
  const scripts = loaded.filter((r) => r.type === 'script');
  return {
    jsGzipKb: scripts.reduce((sum, r) => sum + r.gzip, 0) / 1024,
    transferKb: loaded.reduce((sum, r) => sum + r.transfer, 0) / 1024,
    lcpMs,
    lcpElement,
    requests: loaded.length,
    scripts: scripts.map((r) => new URL(r.url).pathname),
    largest: [...loaded]
      .sort((a, b) => b.transfer - a.transfer)
      .slice(0, 5)
      .map((r) => `${new URL(r.url).pathname}${new URL(r.url).search} ${(r.transfer / 1024).toFixed(1)} KB`),
  };
}

const market = await startMarketplace('bench_web');
let site: Awaited<ReturnType<typeof serveSite>> | undefined;
let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
try {
  console.log('Seeding the demo home content and coupons...');
  await seedDemo(market);
  site = await serveSite(market);
  browser = await launchBrowser();
  const home = (await market.api.http.inject({ method: 'GET', url: '/api/home' })).json();
  await measureHome(site.url, browser); // warm-up: the API's ready answers and resized images
  const measured: Measurement[] = [];
  for (let run = 0; run < runs; run += 1) measured.push(await measureHome(site.url, browser));
  report(
    `demo content from GET /api/home (${home.heroes.length} heroes, ${home.topCoupons.length} top coupons, ` +
      `${home.seasonalOffers.length} seasonal offers, banners, flash text, best offer)`,
    measured,
  );
} finally {
  await browser?.close();
  await site?.close();
  await market.close();
}

function report(name: string, measured: Measurement[]) {
  const js = median(measured.map((m) => m.jsGzipKb));
  const transfer = median(measured.map((m) => m.transferKb));
  const lcp = median(measured.map((m) => m.lcpMs));
  const verdict = (value: number, budget: number) => (value <= budget ? 'within budget' : 'OVER BUDGET');
  console.log(`\nHome page, ${name}; cold cache, median of ${runs} runs (Chromium, 1366x900, localhost):`);
  console.log(
    `  JavaScript, gzipped   ${js.toFixed(1)} KB   (budget ${BUDGET.homeJsKb} KB: ${verdict(js, BUDGET.homeJsKb)})`,
  );
  console.log(
    `  Total transfer        ${transfer.toFixed(1)} KB   (budget ${BUDGET.transferKb} KB: ${verdict(transfer, BUDGET.transferKb)})`,
  );
  console.log(
    `  LCP                   ${lcp.toFixed(0)} ms   (budget < ${BUDGET.lcpMs} ms: ${verdict(lcp, BUDGET.lcpMs - 1)})`,
  );
  console.log(`  LCP element           ${measured[0]!.lcpElement}`);
  console.log(`  Requests              ${measured[0]!.requests}`);
  console.log(`  Scripts loaded        ${measured[0]!.scripts.join(', ')}`);
  console.log(`  Largest transfers     ${measured[0]!.largest.join(', ')}`);
}
