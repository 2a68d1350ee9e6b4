/**
 * Public listing benchmark: how many `GET /api/coupons` requests per second the real API answers
 * from its ready-bytes cache, next to a bare `node:http` server answering the same bytes; then how
 * long the expiry sweep takes over 1,000,000 and over 100,000 coupons with the same number due.
 *
 *   npm run bench:listing [-- --seconds S] [-- --connections C] [-- --warmup W]
 *   npm run bench:listing -- --only expiry     # the expiry sweep alone
 *
 * Works in a database and a Redis prefix of its own, both removed at the end. See bench/README.md.
 */
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import { getDataSourceToken } from '@nestjs/typeorm';
import { ExpireDueCoupons } from '@offers/api/commands';
import { emptyCouponsInBulk, rewindExpirySweep } from '@offers/api/demo';
import { CouponExpired } from '@offers/api/events';
import {
  CouponCommandsModule,
  type Environment,
  emptyOutbox,
  featureEntities,
  migrateDatabase,
  outboxEventCount,
  PlatformModule,
} from '@offers/api/platform';
import { DUE_COUPONS, expirySweepCounts } from '@offers/api/read-models';
import autocannon from 'autocannon';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { API_NODE_OPTIONS } from '../api/scripts/node-options.mjs';
import type { BareServerSetup } from './listing/bare-server.js';
import {
  measureProcessCpu,
  REPOSITORY,
  ServerProcess,
  stopServerProcesses,
  waitForHealthy,
} from './listing/children.js';
import { hotReadLines, measureHotReads, wrkInstalled } from './listing/hot-reads.js';
import {
  MERCHANTS,
  seedCoupons,
  seedListings,
  seedMerchantsAndSlots,
  seedStorePage,
  statements,
  vacuumAnalyze,
} from './listing/seed.js';
import {
  benchEnvironment,
  cleanUpOnce,
  environmentVariables,
  type Load,
  type MachineLoad,
  measureMachine,
  measureProcess,
  median,
  positiveOption,
  redisReachable,
} from './shared.js';

const LISTING_PATH = '/api/coupons?sort=popular&perPage=8';
const LIVE_COUPONS = 100_000;
/** The expiry sweep runs over each of these table sizes, with the same number of coupons due. */
const SWEEP_SIZES = [1_000_000, 100_000];
const SWEEP_DUE = 10_000;
/** Sweeps timed at each size; the median is reported. */
const SWEEP_ROUNDS = 5;
/**
 * Untimed sweeps at each size after its seed. While the seed runs (half a minute for a million
 * coupons, a few seconds for 100,000) this process idles, and V8 shrinks its heap and lets its
 * compiled code go cold: the sweeps that follow spend several times the CPU on garbage collection
 * and unoptimised code (a CPU profile of the first sweeps after the larger seed: 180 ms of
 * collection against 45 ms after the smaller, pg's parameter encoding 170 ms against 30 ms), which
 * measured the idle time of the seed rather than the sweep.
 */
const SWEEP_WARM_ROUNDS = 5;
/** As the scheduler's expiry job (workers/src/scheduling/scheduler.service.ts). */
const EXPIRY_BATCH = 1000;
const API_START_TIMEOUT_MS = 60_000;
const TARGET_RATIO = 0.6;
const TARGET_API_P99_MS = 25;
/** Each hot public read against a bare server sending its bytes (measured with wrk when installed). */
const TARGET_HOT_READ_RATIO = 0.5;
const HOT_READ_ROUNDS = 3;

// ---------------------------------------------------------------------------------------------
// Settings

/** Parts of the bench that `--only` can pick. */
const PARTS = ['reads', 'expiry'] as const;
type Part = (typeof PARTS)[number];

interface Settings {
  seconds: number;
  connections: number;
  warmup: number;
  /** Only this part; every part when unset. */
  only: Part | undefined;
}

function readArguments(): Settings {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string' },
      connections: { type: 'string' },
      warmup: { type: 'string' },
      only: { type: 'string' },
    },
    strict: true,
  });
  const only = values.only as Part | undefined;
  if (only !== undefined && !PARTS.includes(only))
    throw new Error(`--only must be one of: ${PARTS.join(', ')}`);
  return {
    seconds: positiveOption('seconds', values.seconds, 20),
    connections: positiveOption('connections', values.connections, 64),
    warmup: positiveOption('warmup', values.warmup, 3),
    only,
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const thousands = (value: number) => Math.round(value).toLocaleString('en-US');

// ---------------------------------------------------------------------------------------------
// Seeding

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  // A dropped database (Ctrl-C) ends the connection; the query that was running reports it.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function seedListingData(databaseUrl: string): Promise<number> {
  const startedAt = performance.now();
  await withClient(databaseUrl, async (client) => {
    await seedMerchantsAndSlots(client);
    await seedCoupons(client, LIVE_COUPONS);
    await seedListings(client);
    await vacuumAnalyze(client, ['merchants', 'slots', 'coupons', 'coupon_categories', 'coupon_listings']);
  });
  return performance.now() - startedAt;
}

// ---------------------------------------------------------------------------------------------
// HTTP load

interface Listing {
  body: Buffer;
  contentType: string;
}

async function fetchListing(baseUrl: string): Promise<Listing> {
  const response = await fetch(`${baseUrl}${LISTING_PATH}`);
  const body = Buffer.from(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`GET ${LISTING_PATH} answered ${response.status}: ${body}`);
  const { data, total } = JSON.parse(body.toString('utf8')) as { data: unknown[]; total: number };
  if (data.length !== 8 || total !== LIVE_COUPONS) {
    throw new Error(
      `GET ${LISTING_PATH} listed ${data.length} of ${total} coupons, expected 8 of ${LIVE_COUPONS}`,
    );
  }
  return { body, contentType: response.headers.get('content-type') ?? 'application/json' };
}

async function startBareServer(listing: Listing): Promise<{ server: ServerProcess; url: string }> {
  const server = ServerProcess.start(
    'bare server',
    ['--import', '@swc-node/register/esm-register', 'bench/listing/bare-server.ts'],
    {},
    true,
  );
  const setup: BareServerSetup = { body: listing.body.toString('base64'), contentType: listing.contentType };
  const { port } = await server.ask<{ port: number }>(setup, 30_000);
  const url = `http://127.0.0.1:${port}${LISTING_PATH}`;
  const response = await fetch(url);
  const body = Buffer.from(await response.arrayBuffer());
  if (!body.equals(listing.body) || response.headers.get('content-type') !== listing.contentType) {
    throw new Error('the bare server does not answer the bytes it was given');
  }
  return { server, url };
}

interface LoadResult {
  label: string;
  perSecond: number;
  latency: { p50: number; p99: number; p999: number };
  /** Bytes per response on the wire, headers included. */
  responseBytes: number;
  failures: string[];
  warmupMismatches: number;
  /** CPU time of the server process over wall time; undefined without /proc. */
  serverCpu: number | undefined;
  loadGenerator: Load;
  machine: MachineLoad;
}

/** The autocannon run in progress, stopped on Ctrl-C. */
let running: autocannon.Instance | undefined;
/** Set on Ctrl-C so that no further phase starts while the run is torn down. */
let interrupted = false;
/** The sweep's command side, closed by the clean-up. */
let app: INestApplicationContext | undefined;

async function runLoad(options: autocannon.Options): Promise<autocannon.Result> {
  if (interrupted) throw new Error('interrupted');
  running = autocannon(options);
  try {
    return await running;
  } finally {
    running = undefined;
  }
}

/** A warm-up that also checks every answer's bytes, then the measured run. */
async function measureLoad(
  label: string,
  url: string,
  server: ServerProcess,
  settings: Settings,
  body: Buffer,
): Promise<LoadResult> {
  const { connections } = settings;
  const warm = await runLoad({
    url,
    connections,
    duration: settings.warmup,
    expectBody: body.toString('utf8'),
  });
  server.assertRunning();

  const serverCpu = measureProcessCpu(server.pid);
  const here = measureProcess();
  const machine = measureMachine();
  const result = await runLoad({ url, connections, duration: settings.seconds });
  const measured = { serverCpu: serverCpu(), loadGenerator: here().load, machine: machine() };
  server.assertRunning();

  const failures = [
    result.non2xx > 0 ? `${result.non2xx} non-2xx answers` : '',
    result.errors > 0 ? `${result.errors} errors` : '',
    result.timeouts > 0 ? `${result.timeouts} timeouts` : '',
  ].filter(Boolean);
  return {
    label,
    perSecond: result['2xx'] / result.duration,
    latency: { p50: result.latency.p50, p99: result.latency.p99, p999: result.latency.p99_9 },
    responseBytes: result.requests.total > 0 ? result.throughput.total / result.requests.total : Number.NaN,
    failures,
    warmupMismatches: warm.mismatches,
    ...measured,
  };
}

// ---------------------------------------------------------------------------------------------
// Expiry sweep

/** The coupon command handlers on the platform, as the workers run them, without any worker role. */
@Module({})
class SweepModule {
  static forRoot(environment: Environment): DynamicModule {
    return {
      module: SweepModule,
      imports: [PlatformModule.forRoot(environment, { entities: featureEntities }), CouponCommandsModule],
    };
  }
}

interface SweepResult {
  coupons: number;
  due: number;
  expired: number;
  batches: number;
  sweepMs: number;
  seedMs: number;
  plan: string;
  events: number;
}

/** As the scheduler's expiry job: batches of 1000 until a batch announces fewer. */
async function sweep(commandBus: CommandBus): Promise<{ expired: number; batches: number }> {
  let expired = 0;
  let batches = 0;
  for (;;) {
    const batch = await commandBus.execute(new ExpireDueCoupons(EXPIRY_BATCH));
    batches += 1;
    expired += batch;
    if (batch < EXPIRY_BATCH) break;
  }
  return { expired, batches };
}

interface Statement {
  query: string;
  parameters: unknown[];
}

/**
 * Runs the handler once while nothing is due (connecting the pool before anything is timed) and
 * keeps the due coupons' query it sent, so that its plan can be shown for each table size.
 */
async function warmUpExpiry(
  app: INestApplicationContext,
  commandBus: CommandBus,
): Promise<Statement | undefined> {
  const logger = app.get<DataSource>(getDataSourceToken()).logger;
  const logQuery = logger.logQuery;
  let statement: Statement | undefined;
  logger.logQuery = function (this: typeof logger, query, parameters, queryRunner) {
    if (query === DUE_COUPONS && (parameters === undefined || Array.isArray(parameters))) {
      statement ??= { query, parameters: parameters ?? [] };
    }
    return logQuery.call(this, query, parameters, queryRunner);
  };
  try {
    await commandBus.execute(new ExpireDueCoupons(EXPIRY_BATCH));
  } finally {
    logger.logQuery = logQuery;
  }
  return statement;
}

/** The scans and joins of the statement's plan (EXPLAIN without ANALYZE: nothing is changed). */
async function explain(client: pg.Client, statement: Statement | undefined): Promise<string> {
  if (!statement) return 'unknown';
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN ${statement.query}`,
    statement.parameters,
  );
  return rows
    .map((row) => row['QUERY PLAN'])
    .filter((line) => /Scan|Join|Nested Loop/.test(line) && !/Subquery Scan/.test(line))
    .map((line) => line.replace(/^[\s>-]*/, '').replace(/\s+\(cost=.*$/, ''))
    .join(', ');
}

async function benchSweep(
  databaseUrl: string,
  commandBus: CommandBus,
  statement: Statement | undefined,
  coupons: number,
): Promise<SweepResult> {
  return withClient(databaseUrl, async (client) => {
    const seedStartedAt = performance.now();
    const database = statements(client);
    await emptyCouponsInBulk(database);
    await emptyOutbox(database, { restartIds: true });
    await rewindExpirySweep(database);
    await seedCoupons(client, coupons, SWEEP_DUE);
    await vacuumAnalyze(client, ['coupons', 'outbox']);
    const seedMs = performance.now() - seedStartedAt;
    // The seed's writes are flushed now rather than by the checkpointer while the sweep runs.
    // Needs a superuser or pg_checkpoint; without it the sweep runs all the same.
    await client.query('CHECKPOINT').catch(() => undefined);

    const plan = await explain(client, statement);

    // The sweep changes no coupon row, so each round repeats the same work once the outbox and the
    // sweep's mark are back where the seed left them; the median of the timed rounds is reported.
    const rounds: number[] = [];
    let swept = { expired: 0, batches: 0 };
    for (let round = 0; round < SWEEP_WARM_ROUNDS + SWEEP_ROUNDS; round += 1) {
      if (round > 0) {
        await emptyOutbox(database);
        await rewindExpirySweep(database);
        await client.query('CHECKPOINT').catch(() => undefined);
      }
      const startedAt = performance.now();
      swept = await sweep(commandBus);
      if (round >= SWEEP_WARM_ROUNDS) rounds.push(performance.now() - startedAt);
    }
    const { expired, batches } = swept;
    const sweepMs = median(rounds);

    const counts = {
      ...(await expirySweepCounts(database)),
      events: await outboxEventCount(database, CouponExpired.type),
    };
    if (counts.expired !== SWEEP_DUE || counts.events !== SWEEP_DUE || counts.dueLeft !== 0) {
      throw new Error(
        `the sweep over ${coupons} coupons left ${counts.expired} expired, ${counts.events} announced and ` +
          `${counts.dueLeft} unannounced, expected ${SWEEP_DUE}, ${SWEEP_DUE} and 0`,
      );
    }
    return { coupons, due: SWEEP_DUE, expired, batches, sweepMs, seedMs, plan, events: counts.events };
  });
}

// ---------------------------------------------------------------------------------------------
// Report

interface ListingResults {
  seedMs: number;
  listing: Listing;
  api: LoadResult;
  bare: LoadResult;
}

function listingLines(settings: Settings, { seedMs, listing, api, bare }: ListingResults): string[] {
  const percent = (value: number | undefined) =>
    value === undefined ? 'n/a' : `${(value * 100).toFixed(0)}%`;
  const ms = (value: number) => `${value} ms`;
  const row = (result: LoadResult) =>
    `  ${result.label.padEnd(16)}${thousands(result.perSecond).padStart(8)}` +
    `${ms(result.latency.p50).padStart(9)}${ms(result.latency.p99).padStart(9)}` +
    `${ms(result.latency.p999).padStart(9)}${thousands(result.responseBytes).padStart(12)}` +
    `${percent(result.serverCpu).padStart(10)}${percent(result.loadGenerator.cpu).padStart(12)}` +
    `${percent(result.machine.busy).padStart(10)}`;
  const ratio = api.perSecond / bare.perSecond;

  const lines = [
    '',
    `Listing benchmark: GET ${LISTING_PATH}, ${settings.connections} connections, ` +
      `${settings.seconds} s each after a ${settings.warmup} s warm-up`,
    `  ${thousands(LIVE_COUPONS)} live coupons of ${MERCHANTS} merchants (seeded in ${seconds(seedMs)}); ` +
      `response body ${thousands(listing.body.length)} bytes, ${listing.contentType}`,
    '',
    `  ${''.padEnd(16)}${'req/s'.padStart(8)}${'p50'.padStart(9)}${'p99'.padStart(9)}${'p99.9'.padStart(9)}` +
      `${'bytes/resp'.padStart(12)}${'server'.padStart(10)}${'load gen.'.padStart(12)}${'machine'.padStart(10)}`,
    row(api),
    row(bare),
    `  (latency in whole ms; bytes on the wire per response, headers included; CPU time of the server`,
    `   process and of the load generator, 100% = one core; machine: share of all ${api.machine.cores} cores busy)`,
    '',
    `  ratio (API / bare node:http): ${ratio.toFixed(2)}`,
  ];
  for (const result of [api, bare]) {
    if (result.failures.length > 0) lines.push(`  ${result.label}: ${result.failures.join(', ')}`);
    if (result.warmupMismatches > 0) {
      lines.push(
        `  ${result.label}: ${result.warmupMismatches} warm-up answers differed from the listing bytes`,
      );
    }
  }

  const ratioMet = ratio >= TARGET_RATIO;
  const p99Met = api.latency.p99 < TARGET_API_P99_MS;
  lines.push(
    '',
    `Verdict: ${ratioMet && p99Met ? 'MEETS TARGETS' : 'BELOW TARGETS'} ` +
      `(ratio ${ratio.toFixed(2)} ${ratioMet ? '≥' : '<'} ${TARGET_RATIO}, ` +
      `API p99 ${api.latency.p99} ms ${p99Met ? '<' : '≥'} ${TARGET_API_P99_MS} ms)`,
  );
  return lines;
}

function sweepLines(sweeps: SweepResult[]): string[] {
  const lines = [
    '',
    `Expiry sweep: ExpireDueCoupons(${EXPIRY_BATCH}) on the command bus until a batch announces fewer, median of ${SWEEP_ROUNDS} sweeps`,
    '',
    `  ${'coupons'.padStart(11)}${'due'.padStart(9)}${'expired'.padStart(9)}${'events'.padStart(9)}` +
      `${'batches'.padStart(9)}${'sweep'.padStart(10)}${'seeded in'.padStart(11)}`,
    ...sweeps.map(
      (result) =>
        `  ${thousands(result.coupons).padStart(11)}${thousands(result.due).padStart(9)}` +
        `${thousands(result.expired).padStart(9)}${thousands(result.events).padStart(9)}` +
        `${String(result.batches).padStart(9)}${`${result.sweepMs.toFixed(0)} ms`.padStart(10)}` +
        `${seconds(result.seedMs).padStart(11)}`,
    ),
    '',
    "  plan of a batch (EXPLAIN of the due coupons' query, before the sweep):",
    ...sweeps.map((result) => `  ${thousands(result.coupons).padStart(11)}: ${result.plan}`),
    '',
  ];
  if (sweeps.length === 2) {
    const [large, small] = sweeps as [SweepResult, SweepResult];
    lines.push(
      `  ratio (${thousands(large.coupons)} / ${thousands(small.coupons)} coupons): ` +
        `${(large.sweepMs / small.sweepMs).toFixed(2)}`,
      '',
    );
  }
  return lines;
}

/**
 * The HTTP part: the listing's data, the API and the bare server under load, then the hot reads
 * with wrk when it is installed. Every process it started is stopped when it returns.
 */
async function benchListing(
  environment: Environment,
  settings: Settings,
): Promise<{ results: ListingResults; hotReads: string[] }> {
  console.log(`Seeding ${thousands(LIVE_COUPONS)} live coupons and their listings …`);
  const seedMs = await seedListingData(environment.DATABASE_URL);

  const port = await freePort();
  const apiBaseUrl = `http://127.0.0.1:${port}`;
  console.log(`Starting the API on port ${port} …`);
  const api = ServerProcess.start(
    'API',
    [...API_NODE_OPTIONS, 'api/dist/src/main.js'],
    environmentVariables(environment, {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SERVICE_NAME: 'bench-api',
    }),
  );
  await waitForHealthy(api, `${apiBaseUrl}/api/health`, API_START_TIMEOUT_MS);
  const listing = await fetchListing(apiBaseUrl);
  const bare = await startBareServer(listing);

  const phase = (label: string) =>
    console.log(`${label}: ${settings.warmup} s warm-up, then ${settings.seconds} s measured …`);
  phase('API');
  const apiLoad = await measureLoad('API', `${apiBaseUrl}${LISTING_PATH}`, api, settings, listing.body);
  phase('Bare node:http');
  const bareLoad = await measureLoad('bare node:http', bare.url, bare.server, settings, listing.body);
  await bare.server.stop();
  let hotReads: string[] = ['', 'Hot reads with wrk: skipped (wrk and taskset are not installed)'];
  if (wrkInstalled()) {
    const store = await withClient(environment.DATABASE_URL, seedStorePage);
    const rounds = HOT_READ_ROUNDS;
    const seconds = Math.max(3, Math.round(settings.seconds / 2));
    console.log(`Hot reads with wrk: ${rounds} rounds of ${seconds} s per server and read …`);
    const results = await measureHotReads(
      apiBaseUrl,
      api,
      [
        { label: 'coupon list', path: LISTING_PATH },
        { label: 'home page', path: '/api/home' },
        { label: 'store page', path: `/api/stores/${store}` },
        { label: 'suggestions', path: '/api/search/suggest?q=brand' },
      ],
      { connections: settings.connections, seconds, rounds },
    );
    hotReads = hotReadLines(results, TARGET_HOT_READ_RATIO, settings.connections, rounds);
  }
  await stopServerProcesses();
  return { results: { seedMs, listing, api: apiLoad, bare: bareLoad }, hotReads };
}

// ---------------------------------------------------------------------------------------------
// Setup and clean-up

/** The expiry sweep at each table size, in a Nest application context of its own. */
async function benchSweeps(environment: Environment, seedMerchants: boolean): Promise<SweepResult[]> {
  // The sweep's coupons belong to the listing's merchants and slots, seeded here when it did not run.
  if (seedMerchants) await withClient(environment.DATABASE_URL, seedMerchantsAndSlots);
  app = await NestFactory.createApplicationContext(SweepModule.forRoot(environment), {
    logger: ['error', 'warn'],
  });
  const commandBus = app.get(CommandBus);
  const statement = await warmUpExpiry(app, commandBus);
  // One untimed sweep of as many due coupons first: otherwise the first size measured also pays
  // for compiling the handler's path (events, the outbox's INSERT), and the ratio leans on it.
  console.log(
    `Expiry sweep: warming up over ${thousands(2 * SWEEP_DUE)} coupons, ${thousands(SWEEP_DUE)} due …`,
  );
  await benchSweep(environment.DATABASE_URL, commandBus, statement, 2 * SWEEP_DUE);
  const sweeps: SweepResult[] = [];
  for (const coupons of SWEEP_SIZES) {
    if (interrupted) break;
    console.log(`Expiry sweep: seeding ${thousands(coupons)} coupons, ${thousands(SWEEP_DUE)} due …`);
    sweeps.push(await benchSweep(environment.DATABASE_URL, commandBus, statement, coupons));
  }
  return sweeps;
}

async function main(): Promise<void> {
  process.env.SERVICE_NAME ??= 'bench-listing';
  const settings = readArguments();
  const environment = benchEnvironment();
  const databaseName = new URL(environment.DATABASE_URL).pathname.slice(1);
  const cleanUp = cleanUpOnce(
    environment,
    async () => {
      running?.stop();
      await stopServerProcesses();
      await app?.close().catch((error: Error) => console.error(`closing the command side: ${error.message}`));
    },
    () => {
      interrupted = true;
    },
  );

  try {
    const apiEntry = join(REPOSITORY, 'api/dist/src/main.js');
    if (settings.only !== 'expiry' && !existsSync(apiEntry)) {
      throw new Error(`${apiEntry} is missing: run npm run build first`);
    }
    console.log(`Database ${databaseName}, Redis prefix ${environment.QUEUE_PREFIX}`);
    await redisReachable(environment.REDIS_URL);
    await migrateDatabase(environment.DATABASE_URL);

    const listed = settings.only !== 'expiry' ? await benchListing(environment, settings) : undefined;
    const sweeps: SweepResult[] = settings.only !== 'reads' ? await benchSweeps(environment, !listed) : [];

    const lines = [
      ...(listed ? listingLines(settings, listed.results) : []),
      ...(sweeps.length > 0 ? sweepLines(sweeps) : []),
    ];
    process.stdout.write(lines.join('\n'));
    if (listed) console.log(listed.hotReads.join('\n'));
  } finally {
    await cleanUp();
  }
}

try {
  await main();
  process.exit(0);
} catch (error) {
  // After Ctrl-C the run ends through the signal handler; the error is only its consequence.
  if (interrupted) await new Promise(() => undefined);
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
}
