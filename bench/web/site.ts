/**
 * The rendered public site as a host runs it (`npm run serve:web`, in a process of its own) with
 * the demo marketplace of `npm start`:
 *
 * - Lighthouse 12 (mobile settings: simulated slow 4G and a 4x slower CPU) on `/`, `/coupons` and
 *   the demo store's page, median of 3 runs each: performance, accessibility, best practices, SEO,
 *   LCP, CLS and total blocking time, against the targets.
 * - Requests per second of each rendered page (home in English and Hindi, coupons, a store) from
 *   the site's server, asked for as a browser asks (brotli), next to a bare `node:http` server
 *   sending the same bytes, measured in the same run (wrk, server and wrk each on a core of its
 *   own, rounds alternated, median); the ratio is the figure.
 *
 *   npm run bench:web [-- --runs N] [-- --seconds S] [-- --keep] [-- --only lighthouse|pages]
 *
 * `--keep` leaves Lighthouse's JSON reports in a folder it names, for a closer look at a page.
 *
 * Lighthouse comes from the npm registry on first use (`npx lighthouse@12.8.2`: 13.x needs Node
 * 22) and drives Debian's Chromium (`CHROME_PATH`, default /usr/bin/chromium). Prints figures and
 * exits 0 whatever they are; non-zero only when the run itself fails.
 */
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { storePageNames } from '@offers/api/read-models';
import { startMarketplace } from '../../test/support/marketplace.js';
import { eventually } from '../../test/support/test-environment.js';
import { ServerProcess, stopServerProcesses } from '../listing/children.js';
import { hotReadLines, measureHotReads, wrkInstalled } from '../listing/hot-reads.js';
import { median } from '../shared.js';
import { seedDemoMarketplace } from './demo.js';

const LIGHTHOUSE = 'lighthouse@12.8.2';
const TARGETS = { performance: 95, accessibility: 100, bestPractices: 100, seo: 100, lcpMs: 1800, cls: 0.05 };
const TARGET_RATIO = 0.5;
const CONNECTIONS = 32;
const ROUNDS = 3;

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '8' },
    keep: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
if (values.only !== undefined && !['lighthouse', 'pages'].includes(values.only)) {
  console.error('--only takes lighthouse or pages');
  process.exit(2);
}
const measure = { lighthouse: values.only !== 'pages', pages: values.only !== 'lighthouse' };
const runs = Math.max(1, Number(values.runs) || 3);
const seconds = Math.max(2, Number(values.seconds) || 8);
const run = promisify(execFile);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  failing: string[];
  /** What the LCP is, and where its time goes (TTFB, load delay, load time, render delay). */
  lcpElement: string;
  lcpPhases: string;
}

/** Lighthouse's trace sometimes misses the navigation's start on this machine (NO_NAVSTART): it asks to be run again. */
async function lighthouse(url: string, folder: string, attempts = 4): Promise<LighthouseFigures> {
  try {
    return await lighthouseOnce(url, folder);
  } catch (error) {
    if (attempts > 1 && /Please run Lighthouse again/.test(String((error as { stderr?: string }).stderr))) {
      return lighthouse(url, folder, attempts - 1);
    }
    throw error;
  }
}

async function lighthouseOnce(url: string, folder: string): Promise<LighthouseFigures> {
  const output = join(folder, `${new URL(url).pathname.replace(/\W+/g, '_')}-${Date.now()}.json`);
  await run(
    'npx',
    [
      '--yes',
      LIGHTHOUSE,
      url,
      '--quiet',
      '--output=json',
      `--output-path=${output}`,
      '--only-categories=performance,accessibility,best-practices,seo',
      '--chrome-flags=--headless=new --no-sandbox',
    ],
    {
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
      maxBuffer: 64 << 20,
    },
  );
  const report = JSON.parse(await readFile(output, 'utf8'));
  const score = (category: string) => Math.round(report.categories[category].score * 100);
  const failing = Object.values(
    report.audits as Record<string, { id: string; score: number | null; scoreDisplayMode: string }>,
  )
    .filter((audit) => audit.scoreDisplayMode === 'binary' && audit.score === 0)
    .map((audit) => audit.id);
  const lcp = report.audits['largest-contentful-paint-element']?.details?.items ?? [];
  const element = lcp[0]?.items?.[0]?.node;
  const phases = (lcp[1]?.items ?? []) as { phase: string; timing: number }[];
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: report.audits['largest-contentful-paint'].numericValue,
    cls: report.audits['cumulative-layout-shift'].numericValue,
    tbtMs: report.audits['total-blocking-time'].numericValue,
    failing,
    lcpElement: element ? `${element.nodeLabel} (${element.selector})` : 'unknown',
    lcpPhases: phases.map(({ phase, timing }) => `${phase} ${Math.round(timing)}`).join(', '),
  };
}

const market = await startMarketplace('bench_site');
const folder = await mkdtemp(join(tmpdir(), 'lighthouse-'));
try {
  console.log('Seeding the demo marketplace...');
  await seedDemoMarketplace(market.api.dataSource, market.test.environment);
  const port = await freePort();
  const site = ServerProcess.start('site', ['dist/web-public/server/main.js'], {
    ...market.test.variables,
    // As in production (React's production build on the server too); the settings production asks
    // for are given, though the site's server uses neither.
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(24).toString('base64url'),
    SMTP_URL: 'smtp://127.0.0.1:2525',
    LOG_LEVEL: 'warn',
    WEB_PORT: String(port),
    API_UPSTREAM_URL: market.api.baseUrl,
    PUBLIC_URL: `http://localhost:${port}`,
  });
  // Lighthouse's trace is recorded for a navigation to a named host (127.0.0.1 gave NO_NAVSTART).
  const siteUrl = `http://localhost:${port}`;
  await eventually(async () => (await fetch(`${siteUrl}/robots.txt`)).ok, 'the site to listen', 30_000);
  const [store] = await storePageNames(market.api.dataSource);
  if (!store) throw new Error('the demo marketplace has no store page');
  const { slug } = store;

  if (measure.lighthouse) {
    console.log(`\nLighthouse ${LIGHTHOUSE.split('@')[1]}, mobile settings, median of ${runs} runs:`);
    console.log('  page                     perf  a11y  best  seo   LCP ms   CLS     TBT ms');
    for (const path of ['/', '/coupons', `/store/${slug}`]) {
      await fetch(`${siteUrl}${path}`); // rendered once, then ready, as after the first visitor
      const figures: LighthouseFigures[] = [];
      for (let i = 0; i < runs; i += 1) figures.push(await lighthouse(`${siteUrl}${path}`, folder));
      const m = (key: keyof Omit<LighthouseFigures, 'failing' | 'lcpElement' | 'lcpPhases'>) =>
        median(figures.map((f) => f[key]));
      console.log(
        `  ${path.padEnd(24)} ${String(m('performance')).padStart(4)}  ${String(m('accessibility')).padStart(4)}  ` +
          `${String(m('bestPractices')).padStart(4)}  ${String(m('seo')).padStart(4)}  ${m('lcpMs').toFixed(0).padStart(6)}  ` +
          `${m('cls').toFixed(3).padStart(6)}  ${m('tbtMs').toFixed(0).padStart(6)}`,
      );
      const medianLcp = figures.find((f) => f.lcpMs === m('lcpMs'))!;
      console.log(`    LCP: ${medianLcp.lcpElement}; ms: ${medianLcp.lcpPhases}`);
      const failing = [...new Set(figures.flatMap((f) => f.failing))];
      if (failing.length) console.log(`    failing audits: ${failing.join(', ')}`);
    }
    console.log(
      `  targets: performance >= ${TARGETS.performance}, accessibility ${TARGETS.accessibility}, best practices ${TARGETS.bestPractices}, ` +
        `SEO ${TARGETS.seo}, LCP <= ${TARGETS.lcpMs} ms, CLS <= ${TARGETS.cls}`,
    );
  }

  if (measure.pages) {
    if (wrkInstalled()) {
      // As a phone's browser asks for a page: Chrome offers these encodings, the site sends brotli.
      const headers = { 'accept-encoding': 'gzip, deflate, br, zstd' };
      const pages = [
        { label: 'home', path: '/' },
        { label: 'home, Hindi', path: '/hi/' },
        { label: 'coupons', path: '/coupons' },
        { label: 'store', path: `/store/${slug}` },
      ];
      for (const { path } of pages) await fetch(`${siteUrl}${path}`); // rendered once, then ready
      console.log(`\nRendered pages with wrk: ${ROUNDS} rounds of ${seconds} s per server and page …`);
      const results = await measureHotReads(
        siteUrl,
        site,
        pages.map((page) => ({ ...page, headers })),
        { connections: CONNECTIONS, seconds, rounds: ROUNDS },
      );
      for (const line of hotReadLines(results, TARGET_RATIO, CONNECTIONS, ROUNDS, {
        reads: 'Rendered pages, brotli as a browser asks',
        server: 'site',
      }))
        console.log(line);
    } else console.log('\nRendered pages with wrk: skipped (wrk and taskset are not installed)');
  }
} finally {
  await stopServerProcesses();
  await market.close();
  if (values.keep) console.log(`\nLighthouse reports kept in ${folder}`);
  else await rm(folder, { recursive: true, force: true });
}
