/**
 * Event pipeline benchmark: how many domain events per second go from a command to a consumer's
 * effect, and how long each takes, next to a bare BullMQ queue on the same Redis.
 *
 *   npm run bench:events [-- --events N] [-- --warmup W]
 *
 * Works in a database and a BullMQ prefix of its own, both removed at the end. See bench/README.md.
 */
import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { type DynamicModule, type INestApplicationContext, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { getDataSourceToken } from '@nestjs/typeorm';
import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { type Environment, validateEnvironment } from '../api/src/config/environment.js';
import { dropDatabase, migrateDatabase } from '../api/src/database/database-setup.js';
import { DomainEvent, type PublishedEvent } from '../api/src/events/domain-event.js';
import { UnitOfWork } from '../api/src/events/unit-of-work.js';
import { QueueRegistry } from '../api/src/jobs/queue-registry.js';
import { domainEventJobOptions, QueueName } from '../api/src/jobs/queues.js';
import { createRedisConnection } from '../api/src/redis/redis-connection.js';
import type { EventConsumer } from '../workers/src/events/event-consumer.js';
import { WorkersModule } from '../workers/src/workers.module.js';

/** Commands (or bare jobs) kept in flight by the producer side. */
const IN_FLIGHT = 16;
/** A run that makes no progress for this long is reported as an error rather than waited on. */
const STALL_TIMEOUT_MS = 30_000;
const TARGET_RATIO = 0.5;
const TARGET_LAG_P95_MS = 300;

const BENCH_EVENT = 'BenchItemCreated';
const BARE_QUEUE = 'bench-bare';

/** Wall-clock milliseconds with sub-millisecond resolution. */
const now = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------------------------------------
// Settings

function readArguments(): { events: number; warmup: number } {
  const { values } = parseArgs({
    options: { events: { type: 'string' }, warmup: { type: 'string' } },
    strict: true,
  });
  const positive = (name: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`--${name} must be a positive integer`);
    return parsed;
  };
  return { events: positive('events', values.events, 1000), warmup: positive('warmup', values.warmup, 100) };
}

function benchEnvironment(): Environment {
  const base = validateEnvironment({ ...process.env, LOG_LEVEL: 'warn' });
  const suffix = randomBytes(4).toString('hex');
  const databaseUrl = new URL(base.DATABASE_URL);
  databaseUrl.pathname = `/offers_bench_${suffix}`;
  return validateEnvironment({
    ...process.env,
    DATABASE_URL: databaseUrl.toString(),
    QUEUE_PREFIX: `offers-bench-${suffix}`,
    LOG_LEVEL: 'warn',
  });
}

// ---------------------------------------------------------------------------------------------
// Measuring

interface Summary {
  count: number;
  elapsedMs: number;
  perSecond: number;
  lag: number[];
  load: Load;
}

/** How busy the bench process itself was during a measured phase (both sides run in it). */
interface Load {
  /** Share of the time the event loop was running code rather than waiting for I/O. */
  eventLoop: number;
  /** CPU time of the process over wall time (1 = one core fully used). */
  cpu: number;
}

function measureLoad(): () => Load {
  const loop = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const startedAt = now();
  return () => {
    const used = process.cpuUsage(cpu);
    return {
      eventLoop: performance.eventLoopUtilization(loop).utilization,
      cpu: (used.user + used.system) / 1000 / (now() - startedAt),
    };
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

function summarize(count: number, startedAt: number, endedAt: number, lags: number[], load: Load): Summary {
  const elapsedMs = endedAt - startedAt;
  const lag = [...lags].sort((a, b) => a - b);
  return { count, elapsedMs, perSecond: (count / elapsedMs) * 1000, lag, load };
}

/** Collects one arrival per key and lets the caller wait for a number of them. */
class Arrivals<T> {
  readonly items = new Map<string, T>();
  private lastArrival = now();
  private expected = Number.POSITIVE_INFINITY;
  private reached?: () => void;

  add(key: string, value: T): void {
    if (this.items.has(key)) return;
    this.items.set(key, value);
    this.lastArrival = now();
    if (this.items.size >= this.expected) this.reached?.();
  }

  reset(): void {
    this.items.clear();
    this.expected = Number.POSITIVE_INFINITY;
    this.reached = undefined;
  }

  /** Resolves once `count` keys arrived; fails if arrivals stop for {@link STALL_TIMEOUT_MS}. */
  waitFor(count: number, what: string): Promise<void> {
    this.lastArrival = now();
    const arrived = new Promise<void>((resolve, reject) => {
      const watchdog = setInterval(() => {
        if (now() - this.lastArrival < STALL_TIMEOUT_MS) return;
        clearInterval(watchdog);
        reject(new Error(`${what}: stalled at ${this.items.size} of ${count} after ${STALL_TIMEOUT_MS} ms`));
      }, 1000);
      this.expected = count;
      this.reached = () => {
        clearInterval(watchdog);
        resolve();
      };
      if (this.items.size >= count) this.reached();
    });
    // Awaited later, possibly after it failed: keep the failure from counting as unhandled.
    arrived.catch(() => undefined);
    return arrived;
  }
}

/** Set on Ctrl-C so producers stop starting work while the run is torn down. */
let interrupted = false;

/** Runs `task(0 … count-1)` keeping at most `inFlight` of them running. */
async function runConcurrently(count: number, inFlight: number, task: (index: number) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < count && !interrupted) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, lane));
}

// ---------------------------------------------------------------------------------------------
// Reference: a bare BullMQ queue with a no-op worker

async function benchBareBullmq(environment: Environment, events: number, warmup: number): Promise<Summary> {
  const producer = createRedisConnection(environment.REDIS_URL, 'producer');
  const consumer = createRedisConnection(environment.REDIS_URL, 'worker');
  const queue = new Queue(BARE_QUEUE, { connection: producer, prefix: environment.QUEUE_PREFIX });
  const completed = new Arrivals<{ lag: number; at: number }>();
  const worker = new Worker(BARE_QUEUE, async () => undefined, {
    connection: consumer,
    prefix: environment.QUEUE_PREFIX,
    concurrency: environment.EVENT_CONCURRENCY,
  });
  worker.on('completed', (job: Job<{ addedAt: number }>) => {
    const at = now();
    completed.add(job.id!, { lag: at - job.data.addedAt, at });
  });
  worker.on('failed', (job, error) => console.error(`bare job ${job?.id} failed: ${error.message}`));
  try {
    await worker.waitUntilReady();
    const opts = domainEventJobOptions({
      attempts: environment.EVENT_ATTEMPTS,
      backoffMs: environment.EVENT_BACKOFF_MS,
    });
    const addJobs = async (count: number) => {
      await runConcurrently(count, IN_FLIGHT, async (index) => {
        const id = randomUUID();
        const data = {
          ...sampleEvent(id, index),
          addedAt: now(),
        };
        await queue.add(BENCH_EVENT, data, { ...opts, jobId: id });
      });
    };

    const warmedUp = completed.waitFor(warmup, 'bare BullMQ warm-up');
    await addJobs(warmup);
    await warmedUp;
    completed.reset();

    const done = completed.waitFor(events, 'bare BullMQ');
    const load = measureLoad();
    const startedAt = now();
    await addJobs(events);
    await done;
    const results = [...completed.items.values()];
    const endedAt = results.reduce((latest, result) => Math.max(latest, result.at), 0);
    return summarize(
      events,
      startedAt,
      endedAt,
      results.map((result) => result.lag),
      load(),
    );
  } finally {
    await worker.close();
    await queue.close();
    consumer.disconnect();
    producer.disconnect();
  }
}

/** A job body shaped like a published event, so both sides move similar payloads. */
function sampleEvent(id: string, seq: number): PublishedEvent<{ seq: number }> {
  return {
    id,
    position: String(seq),
    type: BENCH_EVENT,
    aggregateType: 'BenchItem',
    aggregateId: randomUUID(),
    payload: { seq },
    occurredAt: new Date().toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// The real pipeline: command → outbox → relay → domain-events queue → dispatcher → consumer

class BenchItemCreated extends DomainEvent<{ seq: number }> {
  readonly type = BENCH_EVENT;
  readonly aggregateType = 'BenchItem';
}

class CreateBenchItem extends Command<string> {
  constructor(readonly seq: number) {
    super();
  }
}

@CommandHandler(CreateBenchItem)
class CreateBenchItemHandler implements ICommandHandler<CreateBenchItem> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute(command: CreateBenchItem): Promise<string> {
    return this.unitOfWork.run(async (tx) => {
      const id = randomUUID();
      await tx.manager.query('INSERT INTO bench_item (id, seq) VALUES ($1, $2)', [id, command.seq]);
      tx.record(new BenchItemCreated(id, { seq: command.seq }));
      return id;
    });
  }
}

interface Applied {
  aggregateId: string;
  occurredAt: number;
  appliedAt: number;
}

/** What the bench consumer saw; shared with the script, which has no handle on Nest's instance. */
const applied = new Arrivals<Applied>();

@Injectable()
class BenchProjection implements EventConsumer {
  readonly name = 'bench-projection';
  readonly handles = [BENCH_EVENT];

  async handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    await manager.query('INSERT INTO bench_item_view (id, seq, occurred_at) VALUES ($1, $2, $3)', [
      event.aggregateId,
      (event.payload as { seq: number }).seq,
      event.occurredAt,
    ]);
    applied.add(event.id, {
      aggregateId: event.aggregateId,
      occurredAt: Date.parse(event.occurredAt),
      appliedAt: now(),
    });
  }
}

@Module({})
class BenchModule {
  static forRoot(environment: Environment): DynamicModule {
    return {
      module: BenchModule,
      imports: [
        WorkersModule.forRoot(environment, { roles: ['relay', 'events'], consumers: [BenchProjection] }),
      ],
      providers: [CreateBenchItemHandler],
    };
  }
}

async function createBenchTables(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`
      CREATE TABLE bench_item (
        id uuid PRIMARY KEY,
        seq integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE bench_item_view (
        id uuid PRIMARY KEY,
        seq integer NOT NULL,
        occurred_at timestamptz NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
  } finally {
    await client.end();
  }
}

interface Stage {
  label: string;
  durations: number[];
}

interface PipelineResult extends Summary {
  stages: Stage[];
  poolWaiting: PoolWaiting;
}

interface PoolWaiting {
  size: number;
  mean: number;
  max: number;
}

/** Samples how many queries wait for a free connection of the application's PostgreSQL pool. */
function samplePoolWaits(app: INestApplicationContext): () => PoolWaiting {
  const pool = (app.get<DataSource>(getDataSourceToken()).driver as unknown as { master: pg.Pool }).master;
  const samples: number[] = [];
  const timer = setInterval(() => samples.push(pool.waitingCount), 5);
  return () => {
    clearInterval(timer);
    const total = samples.reduce((sum, count) => sum + count, 0);
    return {
      size: pool.options.max ?? 10,
      mean: samples.length > 0 ? total / samples.length : 0,
      max: samples.reduce((most, count) => Math.max(most, count), 0),
    };
  };
}

async function benchPipeline(
  app: INestApplicationContext,
  events: number,
  warmup: number,
): Promise<PipelineResult> {
  const commandBus = app.get(CommandBus);
  const committedAt = new Map<string, number>();
  const runCommands = (count: number, from: number) =>
    runConcurrently(count, IN_FLIGHT, async (index) => {
      const id = await commandBus.execute(new CreateBenchItem(from + index));
      committedAt.set(id, now());
    });

  applied.reset();
  const warmedUp = applied.waitFor(warmup, 'pipeline warm-up');
  await runCommands(warmup, 0);
  await warmedUp;
  applied.reset();
  committedAt.clear();

  const done = applied.waitFor(events, 'pipeline');
  const load = measureLoad();
  const poolWaits = samplePoolWaits(app);
  const startedAt = now();
  await runCommands(events, warmup);
  await done;
  const waiting = poolWaits();
  const results = [...applied.items.entries()];
  const endedAt = results.reduce((latest, [, result]) => Math.max(latest, result.appliedAt), 0);
  const summary = summarize(
    events,
    startedAt,
    endedAt,
    results.map(([, result]) => result.appliedAt - result.occurredAt),
    load(),
  );
  await effectsCommitted(app, warmup + events);
  return { ...summary, stages: await stageTimings(app, results, committedAt), poolWaiting: waiting };
}

/** The consumer notes an event just before its transaction commits; checks that all of them did. */
async function effectsCommitted(app: INestApplicationContext, expected: number): Promise<void> {
  const dataSource = app.get<DataSource>(getDataSourceToken());
  const deadline = now() + 5000;
  for (;;) {
    const [{ count }]: { count: number }[] = await dataSource.query(
      'SELECT count(*)::int AS count FROM bench_item_view',
    );
    if (count === expected) return;
    if (now() > deadline) throw new Error(`read model holds ${count} rows, expected ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Splits each event's lag into the stages it went through, from the bench's own timestamps and
 * those BullMQ keeps on the (retained) completed jobs.
 */
async function stageTimings(
  app: INestApplicationContext,
  results: [string, Applied][],
  committedAt: Map<string, number>,
): Promise<Stage[]> {
  const queue = app.get(QueueRegistry).get(QueueName.DomainEvents);
  const jobs = new Map<string, Job>();
  for (const job of (await queue.getJobs(['completed', 'active'], 0, -1)) as Job[]) jobs.set(job.id!, job);
  const stages: Stage[] = [
    { label: 'command   occurredAt → commit returned', durations: [] },
    { label: 'relay     commit → job added to queue', durations: [] },
    { label: 'queue     job added → worker picked it', durations: [] },
    { label: 'consumer  worker picked → effect applied', durations: [] },
  ];
  for (const [eventId, result] of results) {
    const committed = committedAt.get(result.aggregateId);
    const job = jobs.get(eventId);
    if (committed === undefined || !job?.processedOn) continue;
    stages[0]!.durations.push(committed - result.occurredAt);
    stages[1]!.durations.push(job.timestamp - committed);
    stages[2]!.durations.push(job.processedOn - job.timestamp);
    stages[3]!.durations.push(result.appliedAt - job.processedOn);
  }
  for (const stage of stages) stage.durations.sort((a, b) => a - b);
  return stages;
}

// ---------------------------------------------------------------------------------------------
// Report

const loadText = (load: Load) => `${(load.eventLoop * 100).toFixed(0)}% / ${(load.cpu * 100).toFixed(0)}%`;

function report(environment: Environment, warmup: number, bare: Summary, pipeline: PipelineResult): void {
  const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10);
  const row = (label: string, summary: Summary) =>
    `  ${label.padEnd(13)}${`${summary.perSecond.toFixed(0)} /s`.padStart(12)}${`${summary.elapsedMs.toFixed(0)} ms`.padStart(11)}` +
    `${ms(percentile(summary.lag, 50))}${ms(percentile(summary.lag, 95))}${ms(percentile(summary.lag, 99))}`;
  const ratio = pipeline.perSecond / bare.perSecond;
  const lagP95 = percentile(pipeline.lag, 95);

  const lines = [
    '',
    `Event pipeline benchmark: N = ${pipeline.count} events (after ${warmup} warm-up), ` +
      `${IN_FLIGHT} in flight, EVENT_CONCURRENCY ${environment.EVENT_CONCURRENCY}`,
    '',
    `  ${''.padEnd(13)}${'throughput'.padStart(12)}${'elapsed'.padStart(11)}${'lag p50'.padStart(10)}` +
      `${'lag p95'.padStart(10)}${'lag p99'.padStart(10)}`,
    row('bare BullMQ', bare),
    row('pipeline', pipeline),
    '',
    `  ratio (pipeline / bare BullMQ): ${ratio.toFixed(2)}`,
    '',
    `  pipeline stages (ms)${''.padEnd(23)}${'p50'.padStart(10)}${'p95'.padStart(10)}${'p99'.padStart(10)}`,
    ...pipeline.stages.map(
      (stage) =>
        `  ${stage.label.padEnd(43)}${ms(percentile(stage.durations, 50))}` +
        `${ms(percentile(stage.durations, 95))}${ms(percentile(stage.durations, 99))}`,
    ),
    '',
    `  bench process (event loop busy / CPU): bare ${loadText(bare.load)}, pipeline ${loadText(pipeline.load)}`,
    `  PostgreSQL pool (${pipeline.poolWaiting.size} connections): queries waiting for a connection ` +
      `mean ${pipeline.poolWaiting.mean.toFixed(1)}, max ${pipeline.poolWaiting.max}`,
    '',
  ];
  const ratioMet = ratio >= TARGET_RATIO;
  const lagMet = lagP95 < TARGET_LAG_P95_MS;
  lines.push(
    `Verdict: ${ratioMet && lagMet ? 'MEETS TARGETS' : 'BELOW TARGETS'} ` +
      `(ratio ${ratio.toFixed(2)} ${ratioMet ? '≥' : '<'} ${TARGET_RATIO}, ` +
      `pipeline lag p95 ${lagP95.toFixed(1)} ms ${lagMet ? '<' : '≥'} ${TARGET_LAG_P95_MS} ms)`,
    '',
  );
  process.stdout.write(lines.join('\n'));
}

// ---------------------------------------------------------------------------------------------
// Setup and clean-up

async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<number> {
  const redis: Redis = createRedisConnection(redisUrl, 'client');
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}

/** BullMQ would wait for an unreachable Redis forever; fail at once instead. */
async function redisReachable(redisUrl: string): Promise<void> {
  const redis = createRedisConnection(redisUrl, 'client');
  try {
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis at ${redisUrl} is unreachable: ${(error as Error).message}`);
  } finally {
    redis.disconnect();
  }
}

/**
 * A closed pool has asked its connections to end but not waited for the server to see it; dropping
 * the database before then would abort them and make the pool log errors.
 */
async function connectionsClosed(databaseUrl: string, timeoutMs = 3000): Promise<void> {
  const database = new URL(databaseUrl);
  const name = decodeURIComponent(database.pathname.slice(1));
  database.pathname = '/postgres';
  const client = new pg.Client({ connectionString: database.toString() });
  await client.connect();
  try {
    const deadline = now() + timeoutMs;
    while (now() < deadline) {
      const { rows } = await client.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if (rows[0]!.count === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  process.env.SERVICE_NAME ??= 'bench-events';
  const { events, warmup } = readArguments();
  const environment = benchEnvironment();
  const databaseName = new URL(environment.DATABASE_URL).pathname.slice(1);
  let app: INestApplicationContext | undefined;
  let cleaning: Promise<void> | undefined;

  const cleanUp = () => {
    cleaning ??= (async () => {
      await app?.close().catch((error: Error) => console.error(`closing the workers: ${error.message}`));
      await connectionsClosed(environment.DATABASE_URL).catch(() => undefined);
      await dropDatabase(environment.DATABASE_URL).catch((error: Error) =>
        console.error(`dropping ${databaseName}: ${error.message}`),
      );
      await deleteRedisKeys(environment.REDIS_URL, environment.QUEUE_PREFIX).catch((error: Error) =>
        console.error(`deleting Redis keys ${environment.QUEUE_PREFIX}:*: ${error.message}`),
      );
    })();
    return cleaning;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: cleaning up`);
    interrupted = true;
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    console.log(`Database ${databaseName}, Redis prefix ${environment.QUEUE_PREFIX}`);
    await redisReachable(environment.REDIS_URL);
    await migrateDatabase(environment.DATABASE_URL);
    await createBenchTables(environment.DATABASE_URL);

    console.log(`Bare BullMQ: ${warmup} warm-up jobs, then ${events} …`);
    const bare = await benchBareBullmq(environment, events, warmup);

    console.log(`Pipeline: ${warmup} warm-up commands, then ${events} …`);
    app = await NestFactory.createApplicationContext(BenchModule.forRoot(environment), {
      logger: ['error', 'warn'],
    });
    const pipeline = await benchPipeline(app, events, warmup);

    report(environment, warmup, bare, pipeline);
  } finally {
    await cleanUp();
  }
}

try {
  await main();
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
}
