/**
 * Feed import at scale: a generated LinkMyDeals CSV of 100,000 rows across 500 stores, served from
 * a local HTTP server as a fetched source's feed, imported by a real workers process three times
 * (into an empty catalogue, again unchanged, then with a tenth of its rows changed and a twentieth
 * gone), each next to PostgreSQL's `COPY` of the same rows into a bare table in the same run.
 *
 *   npm run bench:feeds [-- --rows N] [-- --stores S]
 *
 * Works in a database and a Redis prefix of its own, both removed at the end. See bench/README.md.
 */
import 'reflect-metadata';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import {
  DEVELOPMENT_ADMIN_PASSWORD,
  firstAdminSeed,
  type MerchantInBulk,
  mapFeedAdvertisersInBulk,
  seedMerchantsInBulk,
  seedSlotsInBulk,
} from '@offers/api/demo';
import { dataSourceOptions, migrateDatabase } from '@offers/api/platform';
import { feedRunProgress } from '@offers/api/read-models';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import { API_NODE_OPTIONS, WORKERS_NODE_OPTIONS } from '../api/scripts/node-options.mjs';
import { freePort } from '../test/support/processes.js';
import { REPOSITORY, ServerProcess, stopServerProcesses, waitForHealthy } from './listing/children.js';
import { statements } from './listing/seed.js';
import {
  benchEnvironment,
  cleanUpOnce,
  environmentVariables,
  positiveOption,
  redisReachable,
} from './shared.js';

const START_TIMEOUT_MS = 60_000;
/** A run or a list that has not moved for this long has stalled: the bench fails rather than wait for ever. */
const STALL_MS = 10 * 60_000;
/** Cheap reads only: the bench's polls share the machine with the run. */
const POLL_MS = 200;
/** The goals: ratios to COPY of the same rows, and the workers' peak resident memory. */
const GOALS = { unchanged: 0.3, first: 0.05, peakMb: 300 };

interface Settings {
  rows: number;
  stores: number;
}

function readArguments(): Settings {
  const { values } = parseArgs({
    options: { rows: { type: 'string' }, stores: { type: 'string' } },
    strict: true,
  });
  return {
    rows: positiveOption('rows', values.rows, 100_000),
    stores: positiveOption('stores', values.stores, 500),
  };
}

// ---------------------------------------------------------------------------------------------
// The feed

const HEADER =
  'lmd_id,store,merchant_homepage,offer_text,title,description,code,terms_and_conditions,categories,' +
  'featured,publisher_exclusive,url,smartlink,image_url,type,offer,offer_value,status,start_date,end_date';
const CATEGORIES = ['"Fashion,Shoes"', 'Electronics', '"Grocery,Daily needs"', 'Travel', '"Beauty,Makeup"'];

const storeName = (store: number) => `Bench Store ${store}`;

/**
 * Row `n` of a phase's feed. `version` 1 is the first feed; a changed row says something else in
 * version 2 (its title, value and end). One row in five is a deal (no code, a title of its own).
 */
function feedLine(n: number, stores: number, version: 1 | 2): string {
  const store = storeName(n % stores);
  const site = `https://store${n % stores}.bench.example`;
  const percent = 5 + (n % 60) + (version === 2 ? 1 : 0);
  const isDeal = n % 5 === 0;
  const title = `${isDeal ? 'Deal' : 'Flat'} ${percent}% off on item ${n}${version === 2 ? ' this week' : ''}`;
  const description = `"Item ${n} of ${store}, on orders above &#8377;${199 + (n % 800)}. Free delivery, easy returns."`;
  const end = version === 2 ? '2032-06-30' : '2031-12-31';
  return [
    900_000 + n,
    store,
    site,
    `${percent}% Off`,
    title,
    description,
    isDeal ? '' : `BENCH${n}`,
    'Valid once per account. Not valid with other offers.',
    CATEGORIES[n % CATEGORIES.length],
    'N',
    n % 11 === 0 ? 'Y' : 'N',
    `${site}/offers/${n}`,
    `https://network.bench.example/s/${n.toString(36)}`,
    '',
    isDeal ? 'Deal' : 'Code',
    'Percentage Off',
    percent,
    'new',
    '2026-01-01',
    end,
  ].join(',');
}

interface Phase {
  name: string;
  /** Rows in the feed. */
  rows: number;
  /** Live coupons the public lists show once the run is applied. */
  live: number;
  csv: Buffer;
}

/** The three feeds: all rows; the same; a tenth changed and a twentieth left out (never both). */
function phases({ rows, stores }: Settings): Phase[] {
  const build = (version: (n: number) => 1 | 2 | null) => {
    const lines = [HEADER];
    for (let n = 1; n <= rows; n += 1) {
      const v = version(n);
      if (v !== null) lines.push(feedLine(n, stores, v));
    }
    return { csv: Buffer.from(`${lines.join('\n')}\n`), rows: lines.length - 1 };
  };
  const first = build(() => 1);
  const changed = build((n) => (n % 20 === 7 ? null : n % 10 === 3 ? 2 : 1));
  return [
    { name: 'first import', ...first, live: first.rows },
    { name: 'unchanged', ...first, live: first.rows },
    { name: '10% changed, 5% gone', ...changed, live: changed.rows },
  ];
}

// ---------------------------------------------------------------------------------------------
// Seeding: the stores, a slot with room for every coupon, the first admin

interface Seeded {
  slotId: number;
  stores: MerchantInBulk[];
}

async function seed(client: pg.Client, settings: Settings): Promise<Seeded> {
  const database = statements(client);
  const stores = await seedMerchantsInBulk(database, {
    first: 0,
    count: settings.stores,
    merchantName: 'Bench Store {n}',
    brandName: 'Bench Store {n}',
    address: '{n} Market Street',
    email: 'store{n}@bench.localhost',
    mobile: '9{n9}',
    siteUrl: 'https://store{n}.bench.example',
    userName: 'store_{n}',
    referralCode: 'BENCH{n5}',
    slug: 'bench-store-{n}',
  });
  const [slotId] = await seedSlotsInBulk(database, [
    { name: 'Feed coupons', kind: 'free', capacity: settings.rows * 2 },
  ]);
  return { slotId: slotId!, stores };
}

/** Maps every store of the feed (named as its store) to its merchant, as an admin's mapping would. */
async function mapAdvertisers(client: pg.Client, sourceId: number, stores: MerchantInBulk[]): Promise<void> {
  await mapFeedAdvertisersInBulk(
    statements(client),
    sourceId,
    stores.map((store) => ({ advertiserId: store.brandName, name: store.brandName, merchantId: store.id })),
  );
}

// ---------------------------------------------------------------------------------------------
// Measuring

/** Resident memory of a process now and at its peak so far, in MB, from /proc (Linux). */
function memoryOf(pid: number | undefined): { rss: number; peak: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** Samples a process's resident memory until stopped; answers its highest sample. */
function sampleMemory(pid: number | undefined): () => number {
  let highest = 0;
  const sample = () => {
    highest = Math.max(highest, memoryOf(pid)?.rss ?? 0);
  };
  sample();
  const timer = setInterval(sample, 50);
  return () => {
    clearInterval(timer);
    sample();
    return highest;
  };
}

/** Seconds for PostgreSQL to COPY the CSV into a bare table of text columns (emptied first). */
async function copySeconds(client: pg.Client, csv: Buffer): Promise<number> {
  await client.query('TRUNCATE bench_feed_copy');
  const started = performance.now();
  await pipeline(
    async function* () {
      // In pieces of 64 KB, as a stream from a network would come.
      for (let offset = 0; offset < csv.length; offset += 65_536) yield csv.subarray(offset, offset + 65_536);
    },
    client.query(copyFrom('COPY bench_feed_copy FROM STDIN WITH (FORMAT csv, HEADER true)')),
  );
  return (performance.now() - started) / 1000;
}

interface RunFigures {
  status: string;
  seconds: number;
  visibleSeconds: number;
  peakMb: number;
  counts: Record<string, number>;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  process.env.SERVICE_NAME ??= 'bench-feeds';
  const settings = readArguments();
  const environment = benchEnvironment();
  const databaseName = new URL(environment.DATABASE_URL).pathname.slice(1);
  let client: pg.Client | undefined;
  let feedServer: Server | undefined;
  const cleanUp = cleanUpOnce(environment, async () => {
    await stopServerProcesses();
    feedServer?.close();
    await client?.end().catch(() => undefined);
  });

  try {
    for (const entry of ['api/dist/src/main.js', 'workers/dist/src/main.js']) {
      if (!existsSync(join(REPOSITORY, entry)))
        throw new Error(`${entry} is missing: run npm run build first`);
    }
    console.log(`Database ${databaseName}, Redis prefix ${environment.QUEUE_PREFIX}`);
    console.log(
      `Generating a LinkMyDeals CSV of ${settings.rows.toLocaleString('en-US')} rows across ${settings.stores} stores …`,
    );
    const feeds = phases(settings);
    await redisReachable(environment.REDIS_URL);
    await migrateDatabase(environment.DATABASE_URL);
    client = new pg.Client({ connectionString: environment.DATABASE_URL });
    client.on('error', () => undefined);
    await client.connect();
    const { slotId, stores } = await seed(client, settings);
    await client.query(
      `CREATE TABLE bench_feed_copy (${HEADER.split(',')
        .map((column) => `${column} text`)
        .join(', ')})`,
    );
    const admins = new DataSource(dataSourceOptions(environment.DATABASE_URL, { size: 1 }));
    await admins.initialize();
    await firstAdminSeed.run(admins, environment);
    await admins.destroy();

    // The network: serves the current phase's feed.
    let served = feeds[0]!.csv;
    feedServer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/csv', 'content-length': served.length });
      response.end(served);
    });
    feedServer.listen(0, '127.0.0.1');
    await once(feedServer, 'listening');
    const feedPort = (feedServer.address() as { port: number }).port;

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const variables = environmentVariables(environment, {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      API_OPERATIONS_PORT: '0',
      WORKERS_OPERATIONS_PORT: '0',
      FEED_ALLOWED_HOSTS: `127.0.0.1:${feedPort}`,
    });
    console.log(`Starting the API on port ${port} and a workers process …`);
    const api = ServerProcess.start('API', [...API_NODE_OPTIONS, 'api/dist/src/main.js'], {
      ...variables,
      SERVICE_NAME: 'bench-api',
    });
    await waitForHealthy(api, `${baseUrl}/api/health`, START_TIMEOUT_MS);
    // The workers of production, every role and its options, as `npm start` runs them.
    const workers = ServerProcess.start('workers', [...WORKERS_NODE_OPTIONS, 'workers/dist/src/main.js'], {
      ...variables,
      SERVICE_NAME: 'bench-workers',
    });

    const signIn = await fetch(`${baseUrl}/api/auth/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-kind': 'bearer' },
      body: JSON.stringify({ username: 'admin', password: DEVELOPMENT_ADMIN_PASSWORD }),
    });
    if (signIn.status !== 200)
      throw new Error(`admin sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const admin = {
      authorization: `Bearer ${((await signIn.json()) as { token: string }).token}`,
      'content-type': 'application/json',
    };
    const created = await fetch(`${baseUrl}/api/admin/feed-sources`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({
        name: 'Bench network',
        format: 'linkmydeals-csv',
        url: `http://127.0.0.1:${feedPort}/offers.csv`,
        mode: 'full',
        slotId,
        reviewPolicy: 'publish',
      }),
    });
    if (created.status !== 201) throw new Error(`feed source not created: ${await created.text()}`);
    const sourceId = ((await created.json()) as { id: number }).id;
    await mapAdvertisers(client, sourceId, stores);

    /** The live coupons the public lists count, as a shopper's browser asks for them. */
    const listed = async () => {
      const response = await fetch(`${baseUrl}/api/coupons?perPage=1`);
      if (response.status !== 200) throw new Error(`GET /api/coupons answered ${response.status}`);
      return ((await response.json()) as { total: number }).total;
    };

    const runPhase = async (phase: Phase): Promise<RunFigures> => {
      served = phase.csv;
      const memory = sampleMemory(workers.pid);
      const requested = await fetch(`${baseUrl}/api/admin/feed-sources/${sourceId}/runs`, {
        method: 'POST',
        headers: { authorization: admin.authorization },
      });
      const requestedAt = performance.now();
      if (requested.status !== 202) throw new Error(`run not requested: ${await requested.text()}`);
      const runId = ((await requested.json()) as { id: number }).id;
      let lastChange = Date.now();
      let last = '';
      let run: Record<string, unknown>;
      for (;;) {
        workers.assertRunning();
        const found = await feedRunProgress(statements(client!), runId);
        if (!found) throw new Error(`feed run ${runId} is missing`);
        run = found;
        const progress = `${run.status} ${run.rows_read} ${run.applied}`;
        if (progress !== last) {
          last = progress;
          lastChange = Date.now();
        }
        if (['succeeded', 'failed', 'waiting-for-admin'].includes(run.status as string)) {
          break;
        }
        if (Date.now() - lastChange > STALL_MS) throw new Error(`feed run ${runId} stalled: ${progress}`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      if (run.status !== 'succeeded') throw new Error(`feed run ${runId} ended ${run.status}`);
      // The public lists show the import once the projection has applied its events.
      let shown = await listed();
      let shownChangedAt = performance.now();
      while (shown !== phase.live) {
        workers.assertRunning();
        if (performance.now() - shownChangedAt > STALL_MS) {
          throw new Error(`the public lists stalled at ${shown} of ${phase.live} coupons`);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const now = await listed();
        if (now !== shown) shownChangedAt = performance.now();
        shown = now;
      }
      const visibleAt = performance.now();
      const peakMb = memory();
      return {
        status: run.status as string,
        seconds: run.seconds as number,
        visibleSeconds: (visibleAt - requestedAt) / 1000,
        peakMb,
        counts: Object.fromEntries(
          ['added', 'updated', 'unchanged', 'ended', 'duplicates', 'rejected', 'waiting'].map((key) => [
            key,
            run[key] as number,
          ]),
        ),
      };
    };

    const lines: string[] = [];
    const results: Array<{ phase: Phase; run: RunFigures; copy: number }> = [];
    for (const phase of feeds) {
      console.log(`Phase "${phase.name}": ${phase.rows.toLocaleString('en-US')} rows …`);
      const run = await runPhase(phase);
      // COPY after the run, the machine as quiet as the run left it.
      const copy = await copySeconds(client, phase.csv);
      results.push({ phase, run, copy });
      console.log(
        `  ${(phase.rows / run.seconds).toFixed(0)} rows/s in ${run.seconds.toFixed(1)} s; COPY ${(phase.rows / copy).toFixed(0)} rows/s`,
      );
    }
    const overallPeak = memoryOf(workers.pid)?.peak ?? Number.NaN;

    const ratioOf = (r: (typeof results)[number]) => r.copy / r.run.seconds;
    lines.push(
      '',
      `Feed import benchmark: ${settings.rows.toLocaleString('en-US')} rows (LinkMyDeals CSV, ${settings.stores} stores, ` +
        `${(feeds[0]!.csv.length / 1024 / 1024).toFixed(1)} MB), fetched from 127.0.0.1 by a workers process, full mode, publish`,
      '',
      `  ${'phase'.padEnd(24)}${'rows'.padStart(8)}${'import'.padStart(12)}${'COPY'.padStart(12)}${'ratio'.padStart(8)}` +
        `${'run'.padStart(9)}${'visible'.padStart(10)}${'workers RSS'.padStart(13)}   outcomes`,
    );
    for (const result of results) {
      const { phase, run, copy } = result;
      lines.push(
        `  ${phase.name.padEnd(24)}${String(phase.rows).padStart(8)}` +
          `${`${(phase.rows / run.seconds).toFixed(0)} /s`.padStart(12)}${`${(phase.rows / copy).toFixed(0)} /s`.padStart(12)}` +
          `${ratioOf(result).toFixed(3).padStart(8)}${`${run.seconds.toFixed(1)} s`.padStart(9)}` +
          `${`${run.visibleSeconds.toFixed(1)} s`.padStart(10)}${`${run.peakMb.toFixed(0)} MB`.padStart(13)}   ` +
          Object.entries(run.counts)
            .filter(([, count]) => count > 0)
            .map(([key, count]) => `${key} ${count}`)
            .join(', '),
      );
    }
    const [first, unchanged] = results;
    const meets = {
      first: ratioOf(first!) >= GOALS.first,
      unchanged: ratioOf(unchanged!) >= GOALS.unchanged,
      memory: overallPeak < GOALS.peakMb,
    };
    lines.push(
      '',
      '  import: rows of the feed over the run, from a workers process taking it up to its end (fetch, read,',
      '  apply, end what is gone);',
      '  COPY: the same CSV into a bare table of text columns, same database, same run; ratio = import / COPY;',
      '  visible: from the request until GET /api/coupons counts the live coupons the run leaves;',
      '  workers RSS: highest resident memory sampled during the phase (every 50 ms)',
      '',
      `  workers' peak resident memory (VmHWM, whole run): ${overallPeak.toFixed(0)} MB`,
      '',
      `Goals: first import ≥ ${GOALS.first} of COPY: ${ratioOf(first!).toFixed(3)} ${meets.first ? 'met' : 'NOT met'}; ` +
        `unchanged ≥ ${GOALS.unchanged}: ${ratioOf(unchanged!).toFixed(3)} ${meets.unchanged ? 'met' : 'NOT met'}; ` +
        `peak memory < ${GOALS.peakMb} MB: ${overallPeak.toFixed(0)} MB ${meets.memory ? 'met' : 'NOT met'}`,
      '',
    );
    process.stdout.write(lines.join('\n'));
  } finally {
    await cleanUp();
  }
}

main().catch((error: Error) => {
  console.error(`Feed benchmark failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
