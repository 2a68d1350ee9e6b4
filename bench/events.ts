/**
 * Event pipeline benchmark: how many domain events per second go from a command to a consumer's
 * effect, and how long each takes, next to a bare BullMQ queue on the same Redis. Both run in the
 * production shape: the side that produces (queue producer, command handlers) in this process, the
 * side that consumes (BullMQ worker, outbox relay and event consumers) in a worker process it starts
 * (bench/bare-worker.ts, bench/pipeline-workers.ts).
 *
 *   npm run bench:events [-- --events N] [-- --warmup W]
 *
 * Works in a database and a BullMQ prefix of its own, both removed at the end. See bench/README.md.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { type DynamicModule, type INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Environment } from '@offers/api/config/environment';
import { dropDatabase, migrateDatabase } from '@offers/api/database/database-setup';
import { DomainEvent, type PublishedEvent } from '@offers/api/events/domain-event';
import { UnitOfWork } from '@offers/api/events/unit-of-work';
import { QueueRegistry } from '@offers/api/jobs/queue-registry';
import { domainEventJobOptions, QueueName } from '@offers/api/jobs/queues';
import { PlatformModule } from '@offers/api/platform/platform.module';
import {
  closeRedisConnection,
  createRedisConnection,
  deleteKeysUnder,
} from '@offers/api/redis/redis-connection';
import { type Job, Queue } from 'bullmq';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { stopWorkerProcesses, WorkerProcess } from './processes.js';
import {
  BARE_QUEUE,
  BENCH_EVENT,
  benchEnvironment,
  type CompletedJob,
  environmentVariables,
  type MachineLoad,
  measureMachine,
  measureProcess,
  type ProcessMeasure,
  positiveOption,
  redisReachable,
} from './shared.js';

/** Commands (or bare jobs) kept in flight by the producing side. */
const IN_FLIGHT = 16;
/** A run that makes no progress for this long is reported as an error rather than waited on. */
const STALL_TIMEOUT_MS = 30_000;
const TARGET_RATIO = 0.5;
const TARGET_LAG_P95_MS = 300;

// Times that are compared across processes (this one, the worker process, PostgreSQL) are all
// wall-clock milliseconds since the epoch: Date.now() here and in BullMQ, clock_timestamp() in
// PostgreSQL. All of them read the same system clock as long as everything runs on one machine.

// ---------------------------------------------------------------------------------------------
// Settings

function readArguments(): { events: number; warmup: number } {
  const { values } = parseArgs({
    options: { events: { type: 'string' }, warmup: { type: 'string' } },
    strict: true,
  });
  return {
    events: positiveOption('events', values.events, 1000),
    warmup: positiveOption('warmup', values.warmup, 100),
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring

interface Summary {
  count: number;
  elapsedMs: number;
  perSecond: number;
  lag: number[];
  /** This process (producing side) and the worker process (consuming side). */
  bench: ProcessMeasure;
  workers: ProcessMeasure;
  machine: MachineLoad;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

const ascending = (values: number[]) => values.sort((a, b) => a - b);

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

/** Measures this process, the worker process and the machine over the same phase. */
async function measureBoth(workers: WorkerProcess, dataSource?: DataSource) {
  await workers.request('measure-start');
  const here = measureProcess(dataSource);
  const machine = measureMachine();
  return async () => {
    const measured = { bench: here(), machine: machine() };
    return { ...measured, workers: await workers.request<ProcessMeasure>('measure-stop') };
  };
}

// ---------------------------------------------------------------------------------------------
// Reference: a bare BullMQ queue, producer here, no-op worker in bench/bare-worker.ts

async function benchBareBullmq(environment: Environment, events: number, warmup: number): Promise<Summary> {
  const workers = await WorkerProcess.start(
    'bare BullMQ worker',
    'bench/bare-worker.ts',
    environmentVariables(environment, {}),
  );
  const producer = createRedisConnection(environment.REDIS_URL, 'producer');
  const queue = new Queue(BARE_QUEUE, { connection: producer, prefix: environment.QUEUE_PREFIX });
  try {
    const opts = domainEventJobOptions({
      attempts: environment.EVENT_ATTEMPTS,
      backoffMs: environment.EVENT_BACKOFF_MS,
    });
    const measured = new Set<string>();
    const addJobs = (count: number, ids?: Set<string>) =>
      runConcurrently(count, IN_FLIGHT, async (index) => {
        const id = randomUUID();
        ids?.add(id);
        await queue.add(BENCH_EVENT, sampleEvent(id, index), { ...opts, jobId: id });
      });

    await addJobs(warmup);
    await workers.waitForProgress(warmup, 'bare BullMQ warm-up', STALL_TIMEOUT_MS);

    const measure = await measureBoth(workers);
    const startedAt = Date.now();
    await addJobs(events, measured);
    await workers.waitForProgress(warmup + events, 'bare BullMQ', STALL_TIMEOUT_MS);
    const load = await measure();

    // timestamp: set here when the job was built; finishedOn: set by the worker process.
    const jobs = (await workers.request<CompletedJob[]>('report')).filter(([id]) => measured.has(id));
    const endedAt = jobs.reduce((latest, [, , , finishedOn]) => Math.max(latest, finishedOn), 0);
    const elapsedMs = endedAt - startedAt;
    return {
      count: events,
      elapsedMs,
      perSecond: (events / elapsedMs) * 1000,
      lag: ascending(jobs.map(([, timestamp, , finishedOn]) => finishedOn - timestamp)),
      ...load,
    };
  } finally {
    await queue.close().catch(() => undefined);
    closeRedisConnection(producer);
    await workers.stop();
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
// The real pipeline: command → outbox (here) → relay → domain-events queue → dispatcher →
// consumer (in bench/pipeline-workers.ts)

class BenchItemCreated extends DomainEvent<{ seq: number }> {
  readonly type = BENCH_EVENT;
  readonly aggregateType = 'BenchItem';
}

class CreateBenchItem extends Command<string> {
  constructor(
    readonly seq: number,
    /** false: the same change without its event, the reference of the command side alone */
    readonly recordEvent = true,
  ) {
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
      if (command.recordEvent) tx.record(new BenchItemCreated(id, { seq: command.seq }));
      return id;
    });
  }
}

/** The command side, as the API runs it: the platform and a command handler, no worker roles. */
@Module({})
class CommandSideModule {
  static forRoot(environment: Environment): DynamicModule {
    return {
      module: CommandSideModule,
      imports: [PlatformModule.forRoot(environment)],
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
        applied_at timestamptz NOT NULL
      )`);
  } finally {
    await client.end();
  }
}

interface CommandSide {
  /** Commands per second that record an event, and the same change without one. */
  withEvent: number;
  withoutEvent: number;
}

/**
 * The command side alone, before any worker runs: what recording an event costs a command (the
 * outbox row, the signal after the commit) against the same transaction without it, both with
 * IN_FLIGHT commands at once. The rows it leaves are removed before the pipeline runs.
 */
async function benchCommandSide(app: INestApplicationContext, count: number): Promise<CommandSide> {
  const commandBus = app.get(CommandBus);
  const dataSource = app.get<DataSource>(getDataSourceToken());
  const rate = async (recordEvent: boolean) => {
    const startedAt = performance.now();
    await runConcurrently(count, IN_FLIGHT, async (index) => {
      await commandBus.execute(new CreateBenchItem(index, recordEvent));
    });
    return (count / (performance.now() - startedAt)) * 1000;
  };
  await rate(false); // warm-up of both paths
  await rate(true);
  const withoutEvent = await rate(false);
  const withEvent = await rate(true);
  await dataSource.query('TRUNCATE outbox, bench_item');
  return { withEvent, withoutEvent };
}

interface Stage {
  label: string;
  durations: number[];
}

interface PipelineResult extends Summary {
  stages: Stage[];
}

/** One read-model row: the event's `occurredAt` and PostgreSQL's clock when the consumer wrote it. */
interface Applied {
  aggregateId: string;
  occurredAt: number;
  appliedAt: number;
  lag: number;
}

async function benchPipeline(
  app: INestApplicationContext,
  workers: WorkerProcess,
  events: number,
  warmup: number,
): Promise<PipelineResult> {
  const commandBus = app.get(CommandBus);
  const dataSource = app.get<DataSource>(getDataSourceToken());
  const committedAt = new Map<string, number>();
  const runCommands = (count: number, from: number) =>
    runConcurrently(count, IN_FLIGHT, async (index) => {
      const id = await commandBus.execute(new CreateBenchItem(from + index));
      committedAt.set(id, Date.now());
    });

  await runCommands(warmup, 0);
  await workers.waitForProgress(warmup, 'pipeline warm-up', STALL_TIMEOUT_MS);
  committedAt.clear();

  const measure = await measureBoth(workers, dataSource);
  const startedAt = Date.now();
  await runCommands(events, warmup);
  await workers.waitForProgress(warmup + events, 'pipeline', STALL_TIMEOUT_MS);
  const load = await measure();

  await effectsCommitted(dataSource, warmup + events);
  const rows: Applied[] = await dataSource.query(
    `SELECT id AS "aggregateId",
            extract(epoch FROM occurred_at)::float8 * 1000 AS "occurredAt",
            extract(epoch FROM applied_at)::float8 * 1000 AS "appliedAt",
            extract(epoch FROM applied_at - occurred_at)::float8 * 1000 AS lag
     FROM bench_item_view WHERE seq >= $1`,
    [warmup],
  );
  const endedAt = rows.reduce((latest, row) => Math.max(latest, row.appliedAt), 0);
  const elapsedMs = endedAt - startedAt;
  return {
    count: events,
    elapsedMs,
    perSecond: (events / elapsedMs) * 1000,
    lag: ascending(rows.map((row) => row.lag)),
    ...load,
    stages: await stageTimings(app, rows, committedAt),
  };
}

/** The consumer counts an event just before its transaction commits; checks that all of them did. */
async function effectsCommitted(dataSource: DataSource, expected: number): Promise<void> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const [{ count }]: { count: number }[] = await dataSource.query(
      'SELECT count(*)::int AS count FROM bench_item_view',
    );
    if (count === expected) return;
    if (Date.now() > deadline) throw new Error(`read model holds ${count} rows, expected ${expected}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Splits each event's lag into the stages it went through: `occurredAt` (set here when the command
 * recorded the event), the time the command's commit returned (here), the times BullMQ keeps on
 * the (retained) job — `timestamp` set by the relay when it built the job, `processedOn` by the
 * worker when it took it, both in the worker process — and the read-model row's `applied_at`.
 */
async function stageTimings(
  app: INestApplicationContext,
  rows: Applied[],
  committedAt: Map<string, number>,
): Promise<Stage[]> {
  const queue = app.get(QueueRegistry).get(QueueName.DomainEvents);
  const jobs = new Map<string, Job<PublishedEvent>>();
  for (const job of (await queue.getJobs(['completed', 'active'], 0, -1)) as Job<PublishedEvent>[]) {
    jobs.set(job.data.aggregateId, job);
  }
  const stages: Stage[] = [
    { label: 'command   occurredAt → commit returned', durations: [] },
    { label: 'relay     commit → relay built the job', durations: [] },
    { label: 'queue     job built → worker took it', durations: [] },
    { label: 'consumer  worker took it → effect written', durations: [] },
  ];
  for (const row of rows) {
    const committed = committedAt.get(row.aggregateId);
    const job = jobs.get(row.aggregateId);
    if (committed === undefined || !job?.processedOn) continue;
    stages[0]!.durations.push(committed - row.occurredAt);
    stages[1]!.durations.push(job.timestamp - committed);
    stages[2]!.durations.push(job.processedOn - job.timestamp);
    stages[3]!.durations.push(row.appliedAt - job.processedOn);
  }
  for (const stage of stages) ascending(stage.durations);
  return stages;
}

// ---------------------------------------------------------------------------------------------
// Report

function report(
  environment: Environment,
  warmup: number,
  bare: Summary,
  pipeline: PipelineResult,
  commandSide: CommandSide,
): void {
  const ms = (value: number) => `${value.toFixed(1)} ms`.padStart(10);
  const row = (label: string, summary: Summary) =>
    `  ${label.padEnd(13)}${`${summary.perSecond.toFixed(0)} /s`.padStart(12)}${`${summary.elapsedMs.toFixed(0)} ms`.padStart(11)}` +
    `${ms(percentile(summary.lag, 50))}${ms(percentile(summary.lag, 95))}${ms(percentile(summary.lag, 99))}`;
  const loadText = ({ load }: ProcessMeasure) =>
    `${(load.eventLoop * 100).toFixed(0)}% / ${(load.cpu * 100).toFixed(0)}%`.padStart(17);
  const poolText = ({ pool }: ProcessMeasure) =>
    pool ? `mean ${pool.mean.toFixed(1)}, max ${pool.max} (of ${pool.size} connections)` : 'n/a';
  const machineText = ({ machine }: Summary) => `${(machine.busy * 100).toFixed(0)}%`;
  // Where each event's CPU goes: the producing side, the consuming side and the two services.
  const cpuRow = (label: string, { count, bench, workers, machine }: Summary) => {
    const parts = [bench.load.cpuMs, workers.load.cpuMs, machine.services?.postgres, machine.services?.redis];
    const known = parts.every((part) => part !== undefined);
    const total = known ? parts.reduce((sum: number, part) => sum + part!, 0) : undefined;
    const cell = (ms: number | undefined, width: number) =>
      (ms === undefined ? 'n/a' : (ms / count).toFixed(2)).padStart(width);
    return `  ${label.padEnd(25)}${cell(parts[0], 8)}${cell(parts[1], 9)}${cell(parts[2], 12)}${cell(parts[3], 8)}${cell(total, 8)}`;
  };
  const ratio = pipeline.perSecond / bare.perSecond;
  const lagP95 = percentile(pipeline.lag, 95);
  const staged = pipeline.stages[0]!.durations.length;

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
    `  pipeline stages (ms)${''.padEnd(26)}${'p50'.padStart(10)}${'p95'.padStart(10)}${'p99'.padStart(10)}`,
    ...pipeline.stages.map(
      (stage) =>
        `  ${stage.label.padEnd(46)}${ms(percentile(stage.durations, 50))}` +
        `${ms(percentile(stage.durations, 95))}${ms(percentile(stage.durations, 99))}`,
    ),
    ...(staged < pipeline.count ? [`  (stages over the ${staged} events whose jobs BullMQ still kept)`] : []),
    '',
    `  event loop busy / CPU${''.padEnd(4)}${'bench process'.padStart(17)}${'worker process'.padStart(17)}`,
    `  bare BullMQ${''.padEnd(14)}${loadText(bare.bench)}${loadText(bare.workers)}`,
    `  pipeline${''.padEnd(17)}${loadText(pipeline.bench)}${loadText(pipeline.workers)}`,
    `  machine (${pipeline.machine.cores} cores, all processes, PostgreSQL and Redis included) busy: ` +
      `bare ${machineText(bare)}, pipeline ${machineText(pipeline)}`,
    '',
    `  CPU per event (ms)${''.padEnd(7)}${'bench'.padStart(8)}${'workers'.padStart(9)}${'PostgreSQL'.padStart(12)}` +
      `${'Redis'.padStart(8)}${'all'.padStart(8)}`,
    cpuRow('bare BullMQ', bare),
    cpuRow('pipeline', pipeline),
    '',
    `  command side alone (${IN_FLIGHT} in flight, no workers): ${commandSide.withEvent.toFixed(0)} commands/s ` +
      `recording an event, ${commandSide.withoutEvent.toFixed(0)} /s the same change without one: ` +
      `ratio ${(commandSide.withEvent / commandSide.withoutEvent).toFixed(2)}`,
    '',
    '  PostgreSQL pool, queries waiting for a connection:',
    `    bench process (commands)                ${poolText(pipeline.bench)}`,
    `    worker process (relay, consumers)       ${poolText(pipeline.workers)}`,
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

async function main(): Promise<void> {
  process.env.SERVICE_NAME ??= 'bench-events';
  const { events, warmup } = readArguments();
  const environment = benchEnvironment();
  const databaseName = new URL(environment.DATABASE_URL).pathname.slice(1);
  let app: INestApplicationContext | undefined;
  let cleaning: Promise<void> | undefined;

  const cleanUp = () => {
    cleaning ??= (async () => {
      await stopWorkerProcesses();
      await app?.close().catch((error: Error) => console.error(`closing the command side: ${error.message}`));
      await dropDatabase(environment.DATABASE_URL).catch((error: Error) =>
        console.error(`dropping ${databaseName}: ${error.message}`),
      );
      await deleteKeysUnder(environment.REDIS_URL, environment.QUEUE_PREFIX).catch((error: Error) =>
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

    app = await NestFactory.createApplicationContext(CommandSideModule.forRoot(environment), {
      logger: ['error', 'warn'],
    });
    console.log(`Command side alone: ${events} commands with an event, ${events} without …`);
    const commandSide = await benchCommandSide(app, events);

    console.log(`Pipeline: ${warmup} warm-up commands, then ${events} …`);
    const workers = await WorkerProcess.start(
      'pipeline workers',
      'bench/pipeline-workers.ts',
      environmentVariables(environment, { WORKER_ROLES: 'relay,events', SERVICE_NAME: 'bench-workers' }),
    );
    const pipeline = await benchPipeline(app, workers, events, warmup);

    report(environment, warmup, bare, pipeline, commandSide);
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
