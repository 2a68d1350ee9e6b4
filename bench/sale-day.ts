/**
 * Sale-day benchmark: a mixed load of shoppers and bots on the production site server (which
 * forwards `/api` to the API), with the workers applying the events meanwhile. The offered rate is
 * stepped up until shoppers' p99 passes 100 ms (or a 5xx, a timeout, an unsent request), then the
 * best rate is held for the whole run and reported: rates and latencies per class, 429s, the event
 * lag, whether the merchants' analytics count each address's click-out once, and the pages against
 * a bare node:http server sending the same bytes.
 *
 *   npm run bench:sale-day [-- --seconds S] [-- --step S] [-- --rates 200,400,800]
 *
 * Works in a database and a Redis prefix of its own, both removed at the end. See bench/README.md.
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { demoSlotsSeed, firstAdminSeed } from '@offers/api/demo';
import {
  dataSourceOptions,
  featureEntities,
  migrateDatabase,
  outboxLag,
  outboxWaiting,
} from '@offers/api/platform';
import { listedCoupons, merchantAnalytics, storePageNames } from '@offers/api/read-models';
import { DataSource } from 'typeorm';
import { API_NODE_OPTIONS } from '../api/scripts/node-options.mjs';
import { freePort } from '../test/support/processes.js';
import { eventually } from '../test/support/test-environment.js';
import {
  measureProcessCpu,
  REPOSITORY,
  ServerProcess,
  stopServerProcesses,
  waitForHealthy,
} from './listing/children.js';
import { hotReadLines, measureHotReads, pin, wrkInstalled } from './listing/hot-reads.js';
import {
  BOT_ADDRESSES,
  CLASSES,
  type ClassFigures,
  connectionPool,
  countStatuses,
  type LoadResult,
  Mix,
  offer,
  percentile,
  type RequestClass,
  SHARES,
  SHOPPER_ADDRESSES,
  SHOPPER_CLASSES,
  type Targets,
  TIMEOUT_MS,
} from './sale-day/load.js';
import {
  benchEnvironment,
  cleanUpOnce,
  environmentVariables,
  measureMachine,
  positiveOption,
  redisReachable,
} from './shared.js';
import { seedDemoMarketplace } from './web/demo.js';

const TARGET_SHOPPER_P99_MS = 100;
const TARGET_LAG_P95_MS = 1000;
const TARGET_PAGE_RATIO = 0.5;
/** Offered requests a second, stepped up in this order until a step fails. */
const DEFAULT_RATES = [100, 150, 200, 300, 400, 600, 800, 1000, 1200, 1600, 2000, 2400, 3200];
/** The pages against bare node:http: as bench/web/site.ts measures them. */
const PAGE_CONNECTIONS = 32;
const PAGE_ROUNDS = 3;
const START_TIMEOUT_MS = 60_000;
/** How long the events of the held rate may take to be applied after it ends. */
const DRAIN_TIMEOUT_MS = 60_000;

interface Settings {
  seconds: number;
  step: number;
  rates: number[];
}

function readArguments(): Settings {
  const { values } = parseArgs({
    options: { seconds: { type: 'string' }, step: { type: 'string' }, rates: { type: 'string' } },
    strict: true,
  });
  const rates = values.rates
    ? values.rates.split(',').map((rate, i) => positiveOption(`rates (item ${i + 1})`, rate, 1))
    : DEFAULT_RATES;
  return {
    seconds: positiveOption('seconds', values.seconds, 60),
    step: positiveOption('step', values.step, 10),
    rates: [...rates].sort((a, b) => a - b).slice(0, 20),
  };
}

// ---------------------------------------------------------------------------------------------
// What the shoppers ask for

async function targetsOf(
  dataSource: DataSource,
  origin: string,
): Promise<Targets & { coupons: Array<{ id: number; merchantId: number }> }> {
  const stores = await storePageNames(dataSource);
  const coupons = await listedCoupons(dataSource);
  if (stores.length === 0 || coupons.length === 0)
    throw new Error('the demo marketplace has no stores or coupons');
  const pages = ['/', '/hi/', '/te/', '/coupons', '/hi/coupons', '/te/coupons', '/top-offers', '/stores'];
  for (const { slug } of stores) pages.push(`/store/${slug}`, `/hi/store/${slug}`, `/te/store/${slug}`);
  const merchants = [...new Set(coupons.map((coupon) => coupon.merchantId))];
  const apiReads = [
    '/api/coupons?sort=popular&perPage=12',
    '/api/coupons?sort=newest&perPage=12',
    '/api/coupons?sort=popular&perPage=12&page=2',
    '/api/coupons?sort=expiring&perPage=12',
    '/api/coupons?sort=best&perPage=12',
    ...merchants.map((merchant) => `/api/coupons?merchant=${merchant}&perPage=12`),
  ];
  const words = [...stores.map((store) => store.name), ...coupons.map((coupon) => coupon.title)]
    .flatMap((text) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u))
    .filter((word) => word.length >= 3);
  const searchTexts = [...new Set(words.flatMap((word) => [word.slice(0, 2), word.slice(0, 3), word]))].slice(
    0,
    200,
  );
  return { origin, pages, apiReads, searchTexts, couponIds: coupons.map((coupon) => coupon.id), coupons };
}

// ---------------------------------------------------------------------------------------------
// Figures

const whole = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a');
const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : 'n/a');
const percent = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? 'n/a' : `${(value * 100).toFixed(0)}%`;

const merge = (figures: ClassFigures[]): ClassFigures => ({
  sent: figures.reduce((n, f) => n + f.sent, 0),
  unsent: figures.reduce((n, f) => n + f.unsent, 0),
  latencies: figures.flatMap((f) => f.latencies),
  statuses: figures.reduce((all, f) => {
    for (const [status, n] of f.statuses) all.set(status, (all.get(status) ?? 0) + n);
    return all;
  }, new Map<number, number>()),
  timeouts: figures.reduce((n, f) => n + f.timeouts, 0),
  errors: figures.reduce((n, f) => n + f.errors, 0),
});

interface Verdict {
  passed: boolean;
  shopperP99: number;
  reasons: string[];
}

function judge(result: LoadResult): Verdict {
  const shoppers = merge(SHOPPER_CLASSES.map((kind) => result.classes[kind]));
  const all = merge(CLASSES.map((kind) => result.classes[kind]));
  const shopperP99 = percentile(shoppers.latencies, 99);
  const reasons: string[] = [];
  if (!(shopperP99 < TARGET_SHOPPER_P99_MS)) reasons.push(`shoppers' p99 ${ms(shopperP99)}`);
  const serverErrors = countStatuses(all, (status) => status >= 500);
  if (serverErrors > 0) reasons.push(`${serverErrors} × 5xx`);
  if (all.timeouts > 0) reasons.push(`${all.timeouts} timeouts`);
  if (all.errors > 0) reasons.push(`${all.errors} connection errors`);
  if (all.unsent > 0) reasons.push(`${all.unsent} not sent (over ${'1,024'} in flight)`);
  return { passed: reasons.length === 0, shopperP99, reasons };
}

const statusSummary = (figures: ClassFigures) =>
  [...figures.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ') || 'none';

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  process.env.SERVICE_NAME ??= 'bench-sale-day';
  const settings = readArguments();
  const environment = benchEnvironment();
  const databaseName = new URL(environment.DATABASE_URL).pathname.slice(1);
  let dataSource: DataSource | undefined;
  let pool: ReturnType<typeof connectionPool> | undefined;
  const cleanUp = cleanUpOnce(environment, async () => {
    await pool?.destroy().catch(() => undefined);
    await stopServerProcesses();
    await dataSource?.destroy().catch(() => undefined);
  });

  try {
    for (const built of [
      'api/dist/src/main.js',
      'workers/dist/src/main.js',
      'dist/web-public/server/main.js',
    ]) {
      if (!existsSync(join(REPOSITORY, built))) {
        throw new Error(`${built} is missing: run npm run build and npm run build -w web-public first`);
      }
    }
    console.log(`Database ${databaseName}, Redis prefix ${environment.QUEUE_PREFIX}`);
    await redisReachable(environment.REDIS_URL);
    await migrateDatabase(environment.DATABASE_URL);
    // The features' entities too: the demo seeds save content through repositories, as the demo CLI does.
    dataSource = new DataSource(dataSourceOptions(environment.DATABASE_URL, { size: 2 }, featureEntities));
    await dataSource.initialize();
    for (const seed of [firstAdminSeed, demoSlotsSeed]) await seed.run(dataSource, environment);

    const [apiPort, sitePort] = [await freePort(), await freePort()];
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const siteUrl = `http://127.0.0.1:${sitePort}`;
    const variables = environmentVariables(environment, {
      NODE_ENV: 'production',
      SESSION_SECRET: randomBytes(24).toString('base64url'),
      SMTP_URL: 'smtp://127.0.0.1:2525',
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      WEB_PORT: String(sitePort),
      API_UPSTREAM_URL: apiUrl,
      PUBLIC_URL: siteUrl,
      // 404s, 409s and 429s are expected under this load: not a log line each.
      LOG_LEVEL: 'error',
      API_OPERATIONS_PORT: '0',
      WORKERS_OPERATIONS_PORT: '0',
      WEB_OPERATIONS_PORT: '0',
      WORKER_ROLES: 'relay,events',
      // The bench is the proxy in front of the site, on loopback: its X-Forwarded-For is believed,
      // and no address is exempt from the rate limits, so that the bots meet them.
      TRUSTED_PROXIES: '127.0.0.1/8,::1',
      RATE_LIMIT_EXEMPT: '',
    });
    console.log(`Starting the API (port ${apiPort}), the workers and the site's server (port ${sitePort}) …`);
    const api = ServerProcess.start('API', [...API_NODE_OPTIONS, 'api/dist/src/main.js'], {
      ...variables,
      SERVICE_NAME: 'bench-api',
    });
    await waitForHealthy(api, `${apiUrl}/api/health`, START_TIMEOUT_MS);
    const workers = ServerProcess.start('workers', ['workers/dist/src/main.js'], {
      ...variables,
      SERVICE_NAME: 'bench-workers',
    });
    console.log('Seeding the demo marketplace and waiting for its read models …');
    await seedDemoMarketplace(dataSource, environment);
    const site = ServerProcess.start('site', ['dist/web-public/server/main.js'], variables);
    await waitForHealthy(site, `${siteUrl}/robots.txt`, START_TIMEOUT_MS);

    const targets = await targetsOf(dataSource, siteUrl);
    for (const path of targets.pages) await fetch(`${siteUrl}${path}`).then((r) => r.arrayBuffer()); // rendered once
    const mix = new Mix(targets);
    pool = connectionPool(siteUrl);

    // The site's server on core 0, this process (the load) on core 1; the API, the workers,
    // PostgreSQL and Redis where the kernel puts them.
    const pinned = wrkInstalled();
    if (pinned) {
      pin(site.pid, 0);
      pin(process.pid, 1);
    }
    const assertRunning = () => {
      for (const server of [api, workers, site]) server.assertRunning();
    };

    // What else the machine is doing (other processes' tests, builds) weighs on every figure.
    const quiet = measureMachine();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const busyBefore = quiet().busy;
    // What each merchant's dashboard counts for the bench's coupons (today and yesterday, India's days).
    const clickFigures = async () => {
      let total = 0;
      for (const coupon of targets.coupons) {
        total += (await merchantAnalytics(dataSource!, coupon.merchantId, 2, coupon.id)).totals.clickOuts;
      }
      return total;
    };
    // An address's click-outs on a coupon count once within the product's click window (30 minutes,
    // longer than the whole run): whether the analytics agree is judged over every phase at once.
    const clicksAtStart = await clickFigures();
    const followedPairs = new Set<string>();
    const triedPairs = new Set<string>();
    const remember = (phase: LoadResult) => {
      for (const pair of phase.clickPairs) followedPairs.add(pair);
      for (const pair of phase.clickPairsTried) triedPairs.add(pair);
      return phase;
    };
    // Warm-up: connections opened, code paths compiled.
    remember(await offer(pool, mix, settings.rates[0]!, 3));
    assertRunning();

    console.log(
      `\nStepping up: ${settings.step} s a step, open model (Poisson arrivals); a step passes with shoppers' p99 ` +
        `< ${TARGET_SHOPPER_P99_MS} ms, no 5xx, no timeouts, nothing unsent`,
    );
    console.log(
      `  ${'offered/s'.padStart(10)}${'answered/s'.padStart(12)}${'shoppers p99'.padStart(14)}` +
        `${'pages'.padStart(9)}${'API'.padStart(9)}${'actions'.padStart(9)}${'bots'.padStart(9)}  verdict`,
    );
    let best: number | undefined;
    for (const rate of settings.rates) {
      const result = remember(await offer(pool, mix, rate, settings.step));
      assertRunning();
      const verdict = judge(result);
      const answered = CLASSES.reduce((n, kind) => n + result.classes[kind].latencies.length, 0);
      console.log(
        `  ${whole(rate).padStart(10)}${whole(answered / settings.step).padStart(12)}${ms(verdict.shopperP99).padStart(14)}` +
          `${CLASSES.map((kind) => ms(percentile(result.classes[kind].latencies, 99)).padStart(9)).join('')}  ` +
          `${verdict.passed ? 'pass' : `fail: ${verdict.reasons.join(', ')}`}`,
      );
      if (!verdict.passed) break;
      best = rate;
    }
    const held = best ?? settings.rates[0]!;
    if (best === undefined) console.log(`  no step passed: holding the lowest rate, ${held}/s, to show why`);

    // The held rate: everything below is measured over it.
    await eventually(
      async () => (await outboxWaiting(dataSource!)) === 0,
      'the steps’ events to be applied',
      DRAIN_TIMEOUT_MS,
    );
    console.log(`\nHolding ${whole(held)} requests/s for ${settings.seconds} s …`);
    const [{ from }] = await dataSource.query('SELECT clock_timestamp() AS from');
    const machine = measureMachine();
    const cpu = {
      site: measureProcessCpu(site.pid),
      api: measureProcessCpu(api.pid),
      workers: measureProcessCpu(workers.pid),
      load: measureProcessCpu(process.pid),
    };
    const result = remember(await offer(pool, mix, held, settings.seconds));
    const [{ until }] = await dataSource.query('SELECT clock_timestamp() AS until');
    const load = {
      machine: machine().busy,
      site: cpu.site(),
      api: cpu.api(),
      workers: cpu.workers(),
      generator: cpu.load(),
    };
    assertRunning();
    const verdict = judge(result);

    // Event lag: from the event's occurredAt (stamped in its command's transaction, just before
    // the commit) to the outbox's processed_at (stamped in the transaction of its last consumer).
    let undrained = 0;
    try {
      await eventually(
        async () => (await outboxWaiting(dataSource!, from, until)) === 0,
        'the held rate’s events to be applied',
        DRAIN_TIMEOUT_MS,
      );
    } catch {
      undrained = 1;
    }
    const { byType: lagRows, all: allLag } = await outboxLag(dataSource, from, until);
    // Counted once per address and coupon: at least every pair that was sent to the store, at most
    // every pair tried (a click-out that timed out here may still have been recorded).
    const counted = (await clickFigures()) - clicksAtStart;
    const countedOnce = followedPairs.size <= counted && counted <= triedPairs.size;

    // The pages against bare node:http, as the site bench measures them, nothing else running.
    let pageLines: string[] = [
      '',
      'Pages against bare node:http: skipped (wrk and taskset are not installed)',
    ];
    let pageRatio: number | undefined;
    if (pinned) {
      console.log(
        `Pages against bare node:http with wrk: ${PAGE_ROUNDS} rounds of 3 s per server and page …`,
      );
      const headers = { 'accept-encoding': 'gzip, deflate, br, zstd' };
      const [store] = targets.pages.filter((path) => path.startsWith('/store/'));
      const pages = [
        { label: 'home', path: '/' },
        { label: 'home, Hindi', path: '/hi/' },
        { label: 'home, Telugu', path: '/te/' },
        { label: 'coupons', path: '/coupons' },
        { label: 'store', path: store! },
      ].map((page) => ({ ...page, headers }));
      for (const { path } of pages) await fetch(`${siteUrl}${path}`).then((r) => r.arrayBuffer());
      const results = await measureHotReads(siteUrl, site, pages, {
        connections: PAGE_CONNECTIONS,
        seconds: 3,
        rounds: PAGE_ROUNDS,
      });
      pageRatio = Math.min(...results.map((r) => r.ratio));
      pageLines = hotReadLines(results, TARGET_PAGE_RATIO, PAGE_CONNECTIONS, PAGE_ROUNDS, {
        reads: 'Pages against bare node:http, brotli as a browser asks',
        server: 'site',
      });
    }

    // -----------------------------------------------------------------------------------------
    const shoppers = merge(SHOPPER_CLASSES.map((kind) => result.classes[kind]));
    const row = (label: string, figures: ClassFigures) =>
      `  ${label.padEnd(22)}${whole(figures.latencies.length / settings.seconds).padStart(8)}` +
      `${ms(percentile(figures.latencies, 50)).padStart(10)}${ms(percentile(figures.latencies, 99)).padStart(10)}` +
      `${whole(countStatuses(figures, (s) => s === 429)).padStart(7)}${whole(countStatuses(figures, (s) => s >= 500)).padStart(6)}` +
      `${whole(figures.timeouts + figures.errors + figures.unsent).padStart(9)}   ${statusSummary(figures)}`;
    const labels: Record<RequestClass, string> = {
      pages: 'shoppers: pages',
      api: 'shoppers: API reads',
      actions: 'shoppers: reveal/out/vote',
      bots: 'bots',
    };
    const lagP95 = Number(allLag.p95);
    const shopper429 = countStatuses(shoppers, (s) => s === 429);
    const bot429 = countStatuses(result.classes.bots, (s) => s === 429);
    const lines = [
      '',
      `Sale-day benchmark: ${whole(held)} requests/s offered for ${settings.seconds} s (the best step), ` +
        `shoppers from ${whole(SHOPPER_ADDRESSES)} addresses, bots from ${BOT_ADDRESSES}, by X-Forwarded-For`,
      `  mix: pages ${percent(SHARES.pages)}, API reads ${percent(SHARES.api)}, reveals/click-outs/votes ` +
        `${percent(SHARES.actions)}, bots ${percent(SHARES.bots)}; ${verdict.passed ? 'held' : `NOT held: ${verdict.reasons.join(', ')}`}`,
      '',
      `  ${'class'.padEnd(22)}${'req/s'.padStart(8)}${'p50'.padStart(10)}${'p99'.padStart(10)}${'429'.padStart(7)}` +
        `${'5xx'.padStart(6)}${'failed'.padStart(9)}   answers`,
      ...CLASSES.map((kind) => row(labels[kind], result.classes[kind])),
      row('shoppers, all', shoppers),
      `  (latency from when each request was due to its last byte; failed: timeouts over ${TIMEOUT_MS} ms,` +
        ' connection errors, arrivals not sent)',
      '',
      `  CPU over the held rate (100% = one core): site ${percent(load.site)}, API ${percent(load.api)}, ` +
        `workers ${percent(load.workers)}, load generator ${percent(load.generator)}; machine ${percent(load.machine)} busy` +
        ` (${percent(busyBefore)} before the load, the bench's processes idle); ` +
        `generator's send delay p99 ${ms(result.sendDelayP99Ms)}`,
      '',
      `  event lag (occurredAt → processed by its last consumer), ${whole(allLag.events)} events: ` +
        `p50 ${ms(Number(allLag.p50))}, p95 ${ms(lagP95)}, p99 ${ms(Number(allLag.p99))}` +
        `${undrained ? ` (some not applied ${DRAIN_TIMEOUT_MS / 1000} s after the end)` : ''}`,
      ...lagRows.map(
        (r) =>
          `    ${r.type.padEnd(24)}${whole(r.events).padStart(7)} events  p50 ${ms(Number(r.p50)).padStart(8)}  ` +
          `p95 ${ms(Number(r.p95)).padStart(8)}${r.waiting ? `  ${r.waiting} waiting` : ''}${r.failed ? `  ${r.failed} failed` : ''}`,
      ),
      '',
      `  click-outs counted once per address: ${countedOnce ? 'yes' : 'no'} ` +
        `(over the whole run the merchants' analytics count ${whole(counted)} click-outs of the bench's coupons; ` +
        `the bench was sent to the store for ${whole(followedPairs.size)} distinct (address, coupon) pairs and ` +
        `tried ${whole(triedPairs.size)}; in the held rate it followed ${whole(result.clickOuts)} click-outs)`,
      ...pageLines,
      '',
      `Verdict: ${
        verdict.passed &&
        shopper429 === 0 &&
        lagP95 < TARGET_LAG_P95_MS &&
        countedOnce &&
        (pageRatio === undefined || pageRatio >= TARGET_PAGE_RATIO)
          ? 'MEETS TARGETS'
          : 'BELOW TARGETS'
      } (best rate ${best === undefined ? 'none' : `${whole(best)}/s`}; shoppers p99 ${ms(verdict.shopperP99)} ` +
        `${verdict.shopperP99 < TARGET_SHOPPER_P99_MS ? '<' : '≥'} ${TARGET_SHOPPER_P99_MS} ms; 429s for shoppers ` +
        `${shopper429} (goal 0), for bots ${bot429}; event lag p95 ${ms(lagP95)} ` +
        `${lagP95 < TARGET_LAG_P95_MS ? '<' : '≥'} ${TARGET_LAG_P95_MS} ms; click-outs once per address ` +
        `${countedOnce ? 'yes' : 'no'}; pages / bare ${pageRatio === undefined ? 'n/a' : pageRatio.toFixed(2)} ` +
        `(goal ≥ ${TARGET_PAGE_RATIO}))`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } finally {
    await cleanUp();
  }
}

main().catch((error: Error) => {
  console.error(`Sale-day benchmark failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
