/**
 * Event pipeline benchmark: how many domain events per second go from a command to a consumer's
 * effect, and how long each takes, next to a bare BullMQ queue on the same Redis. Both run in the
 * production shape: the side that produces (queue producer, command handlers) in this process, the
 * side that consumes (BullMQ worker, outbox relay and event consumers) in a worker process it starts
 * (bench/bare-worker.ts, bench/pipeline-workers.ts).
 *
 *   npm run bench:events [-- --events N] [-- --warmup W] [-- --rounds R]
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
import { DomainEvent, type PublishedEvent } from '@offers/api/events';
import {
  closeRedisConnection,
  createRedisConnection,
  domainEventJobOptions,
  type Environment,
  emptyOutbox,
  featureEntities,
  migrateDatabase,
  PlatformModule,
  QueueName,
  QueueRegistry,
  UnitOfWork,
} from '@offers/api/platform';
import { type Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { stopWorkerProcesses, WorkerProcess } from './processes.js';
import {
  BARE_QUEUE,
  BENCH_EVENT,
  benchEnvironment,
  type CompletedJob,
  cleanUpOnce,
  environmentVariables,
  type MachineLoad,
  measureMachine,
  measureProcess,
  median,
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

interface Settings {
  events: number;
  warmup: number;
  rounds: number;
}

function readArguments(): Settings {
  const { values } = parseArgs({
    options: { events: { type: 'string' }, warmup: { type: 'string' }, rounds: { type: 'string' } },
    strict: true,
  });
  return {
    events: positiveOption('events', values.events, 1000),
    warmup: positiveOption('warmup', values.warmup, 100),
    rounds: positiveOption('rounds', values.rounds, 5),
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

/**
 * The producer (this process) and the no-op worker process of the reference, kept for all rounds.
 * Each round adds `events` jobs and measures until the worker has completed them.
 */
class BareBullmq {
  private readonly opts: ReturnType<typeof domainEventJobOptions>;
  /** Jobs added so far (warm-up included): the worker's progress to wait for. */
  private added = 0;

  private constructor(
    private readonly workers: WorkerProcess,
    private readonly producer: Redis,
    private readonly queue: Queue,
    environment: Environment,
  ) {
    this.opts = domainEventJobOptions({
      attempts: environment.EVENT_ATTEMPTS,
      backoffMs: environment.EVENT_BACKOFF_MS,
    });
  }

  static async start(environment: Environment, warmup: number): Promise<BareBullmq> {
    const workers = await WorkerProcess.start(
      'bare BullMQ worker',
      'bench/bare-worker.ts',
      environmentVariables(environment, {}),
    );
    const producer = createRedisConnection(environment.REDIS_URL, 'producer');
    const queue = new Queue(BARE_QUEUE, { connection: producer, prefix: environment.QUEUE_PREFIX });
    const bare = new BareBullmq(workers, producer, queue, environment);
    await bare.addJobs(warmup);
    await workers.waitForProgress(bare.added, 'bare BullMQ warm-up', STALL_TIMEOUT_MS);
    return bare;
  }

  private async addJobs(count: number, ids?: Set<string>): Promise<void> {
    this.added += count;
    await runConcurrently(count, IN_FLIGHT, async (index) => {
      const id = randomUUID();
      ids?.add(id);
      await this.queue.add(BENCH_EVENT, sampleEvent(id, index), { ...this.opts, jobId: id });
    });
  }

  async round(events: number): Promise<Summary> {
    const measured = new Set<string>();
    const measure = await measureBoth(this.workers);
    const startedAt = Date.now();
    await this.addJobs(events, measured);
    await this.workers.waitForProgress(this.added, 'bare BullMQ', STALL_TIMEOUT_MS);
    const load = await measure();

    // timestamp: set here when the job was built; finishedOn: set by the worker process.
    const jobs = (await this.workers.request<CompletedJob[]>('report')).filter(([id]) => measured.has(id));
    const endedAt = jobs.reduce((latest, [, , , finishedOn]) => Math.max(latest, finishedOn), 0);
    const elapsedMs = endedAt - startedAt;
    return {
      count: events,
      elapsedMs,
      perSecond: (events / elapsedMs) * 1000,
      lag: ascending(jobs.map(([, timestamp, , finishedOn]) => finishedOn - timestamp)),
      ...load,
    };
  }

  async stop(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    closeRedisConnection(this.producer);
    await this.workers.stop();
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
      imports: [PlatformModule.forRoot(environment, { entities: featureEntities })],
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
  /** CPU per command that records an event, in ms: this process, PostgreSQL and Redis (no /proc: undefined). */
  cpuMsWithEvent?: number;
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
  // No worker runs yet: what the machine spends meanwhile is the commands'.
  const here = measureProcess();
  const machine = measureMachine();
  const withEvent = await rate(true);
  const { services } = machine();
  const cpuMsWithEvent = services && (here().load.cpuMs + services.postgres + services.redis) / count;
  await emptyOutbox(dataSource);
  await dataSource.query('TRUNCATE bench_item');
  return { withEvent, withoutEvent, cpuMsWithEvent };
}

interface Stage {
  label: string;
  durations: number[];
}

/** One read-model row: the event's `occurredAt` and PostgreSQL's clock when the consumer wrote it. */
interface Applied {
  aggregateId: string;
  occurredAt: number;
  appliedAt: number;
  lag: number;
}

/**
 * The command side (this process) and the pipeline's worker process, kept for all rounds. Each
 * round runs `events` commands and measures until the worker process has applied their events.
 */
class Pipeline {
  private readonly commandBus: CommandBus;
  private readonly dataSource: DataSource;
  /** When each measured command's commit returned, by the id of the row it created. */
  private readonly committedAt = new Map<string, number>();
  /** Commands run so far (warm-up included): the seq of the next one and the progress to wait for. */
  private ran = 0;
  /** The read-model rows of the measured events, every round's. */
  private readonly applied: Applied[] = [];

  private constructor(
    private readonly app: INestApplicationContext,
    private readonly workers: WorkerProcess,
  ) {
    this.commandBus = app.get(CommandBus);
    this.dataSource = app.get<DataSource>(getDataSourceToken());
  }

  static async start(
    app: INestApplicationContext,
    workers: WorkerProcess,
    warmup: number,
  ): Promise<Pipeline> {
    const pipeline = new Pipeline(app, workers);
    await pipeline.runCommands(warmup);
    await workers.waitForProgress(pipeline.ran, 'pipeline warm-up', STALL_TIMEOUT_MS);
    pipeline.committedAt.clear();
    return pipeline;
  }

  private async runCommands(count: number): Promise<void> {
    const from = this.ran;
    this.ran += count;
    await runConcurrently(count, IN_FLIGHT, async (index) => {
      const id = await this.commandBus.execute(new CreateBenchItem(from + index));
      this.committedAt.set(id, Date.now());
    });
  }

  async round(events: number): Promise<Summary> {
    const from = this.ran;
    const measure = await measureBoth(this.workers, this.dataSource);
    const startedAt = Date.now();
    await this.runCommands(events);
    await this.workers.waitForProgress(this.ran, 'pipeline', STALL_TIMEOUT_MS);
    const load = await measure();

    await effectsCommitted(this.dataSource, this.ran);
    const rows: Applied[] = await this.dataSource.query(
      `SELECT id AS "aggregateId",
              extract(epoch FROM occurred_at)::float8 * 1000 AS "occurredAt",
              extract(epoch FROM applied_at)::float8 * 1000 AS "appliedAt",
              extract(epoch FROM applied_at - occurred_at)::float8 * 1000 AS lag
       FROM bench_item_view WHERE seq >= $1 AND seq < $2`,
      [from, this.ran],
    );
    this.applied.push(...rows);
    const endedAt = rows.reduce((latest, row) => Math.max(latest, row.appliedAt), 0);
    const elapsedMs = endedAt - startedAt;
    return {
      count: events,
      elapsedMs,
      perSecond: (events / elapsedMs) * 1000,
      lag: ascending(rows.map((row) => row.lag)),
      ...load,
    };
  }

  /** Every measured event's stages, read once all rounds are over. */
  stages(): Promise<Stage[]> {
    return stageTimings(this.app, this.applied, this.committedAt);
  }
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

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * A side's rounds taken together: throughput and elapsed time of its median round, the lags of all
 * its events, CPU times summed (so that CPU per event covers every round), shares averaged.
 */
function combine(rounds: Summary[]): Summary {
  const side = (of: (round: Summary) => ProcessMeasure): ProcessMeasure => {
    const measures = rounds.map(of);
    const pools = measures.flatMap(({ pool }) => (pool ? [pool] : []));
    return {
      load: {
        eventLoop: mean(measures.map(({ load }) => load.eventLoop)),
        cpu: mean(measures.map(({ load }) => load.cpu)),
        cpuMs: measures.reduce((sum, { load }) => sum + load.cpuMs, 0),
      },
      pool:
        pools.length > 0
          ? {
              size: pools[0]!.size,
              mean: mean(pools.map((pool) => pool.mean)),
              max: Math.max(...pools.map((pool) => pool.max)),
            }
          : undefined,
    };
  };
  const services = rounds.map(({ machine }) => machine.services);
  return {
    count: rounds.reduce((sum, round) => sum + round.count, 0),
    elapsedMs: median(rounds.map((round) => round.elapsedMs)),
    perSecond: median(rounds.map((round) => round.perSecond)),
    lag: ascending(rounds.flatMap((round) => round.lag)),
    bench: side((round) => round.bench),
    workers: side((round) => round.workers),
    machine: {
      cores: rounds[0]!.machine.cores,
      busy: mean(rounds.map(({ machine }) => machine.busy)),
      services: services.every((service) => service !== undefined)
        ? {
            postgres: services.reduce((sum, service) => sum + service!.postgres, 0),
            redis: services.reduce((sum, service) => sum + service!.redis, 0),
          }
        : undefined,
    },
  };
}

/**
 * A side's CPU time in ms: the bench process, the worker process, PostgreSQL and Redis, and all of
 * them together (the services' and the total undefined without Linux's /proc).
 */
function cpuTimes({ bench, workers, machine }: Summary) {
  const parts = [bench.load.cpuMs, workers.load.cpuMs, machine.services?.postgres, machine.services?.redis];
  const known = parts.every((part) => part !== undefined);
  return { parts, total: known ? parts.reduce((sum: number, part) => sum + part!, 0) : undefined };
}

/**
 * With every core busy, throughput is about the inverse of CPU per event. A command's CPU (its
 * process, PostgreSQL, Redis) measured alone, next to a bare job's whole CPU, bounds the ratio of
 * a pipeline whose every event is also a job that costs what a bare one does.
 */
function cpuBoundLines(commandSide: CommandSide, bare: Summary): string[] {
  const { total } = cpuTimes(bare);
  if (commandSide.cpuMsWithEvent === undefined || total === undefined) return [];
  const job = total / bare.count;
  const command = commandSide.cpuMsWithEvent;
  return [
    `  CPU per command recording an event, commands alone (bench process, PostgreSQL, Redis): ${command.toFixed(2)} ms; ` +
      `per bare BullMQ job: ${job.toFixed(2)} ms`,
    `  ratio if each event cost its command and a bare job, nothing more: ${(job / (job + command)).toFixed(2)}`,
  ];
}

function report(
  environment: Environment,
  settings: Settings,
  bareRounds: Summary[],
  pipelineRounds: Summary[],
  stages: Stage[],
  commandSide: CommandSide,
): void {
  const { events, warmup, rounds } = settings;
  const bare = combine(bareRounds);
  const pipeline = combine(pipelineRounds);
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
  const cpuRow = (label: string, summary: Summary) => {
    const { parts, total } = cpuTimes(summary);
    const { count } = summary;
    const cell = (ms: number | undefined, width: number) =>
      (ms === undefined ? 'n/a' : (ms / count).toFixed(2)).padStart(width);
    return `  ${label.padEnd(25)}${cell(parts[0], 8)}${cell(parts[1], 9)}${cell(parts[2], 12)}${cell(parts[3], 8)}${cell(total, 8)}`;
  };
  // Each round's ratio compares two runs next to each other in time; their median is the figure.
  const ratios = pipelineRounds.map((round, index) => round.perSecond / bareRounds[index]!.perSecond);
  const ratio = median(ratios);
  const lagP95 = percentile(pipeline.lag, 95);
  const staged = stages[0]!.durations.length;
  const perSecond = (summary: Summary) => `${summary.perSecond.toFixed(0)} /s`;

  const lines = [
    '',
    `Event pipeline benchmark: N = ${events} events a round, ${rounds} rounds (after ${warmup} warm-up), ` +
      `${IN_FLIGHT} in flight, EVENT_CONCURRENCY ${environment.EVENT_CONCURRENCY}`,
    '',
    `  round${'bare BullMQ'.padStart(16)}${'pipeline'.padStart(12)}${'ratio'.padStart(9)}${'pipeline lag p95'.padStart(19)}`,
    ...ratios.map(
      (roundRatio, index) =>
        `  ${String(index + 1).padEnd(5)}${perSecond(bareRounds[index]!).padStart(16)}` +
        `${perSecond(pipelineRounds[index]!).padStart(12)}${roundRatio.toFixed(2).padStart(9)}` +
        `${ms(percentile(pipelineRounds[index]!.lag, 95)).padStart(19)}`,
    ),
    '',
    "  throughput and elapsed: the median round; lags: every round's events",
    `  ${''.padEnd(13)}${'throughput'.padStart(12)}${'elapsed'.padStart(11)}${'lag p50'.padStart(10)}` +
      `${'lag p95'.padStart(10)}${'lag p99'.padStart(10)}`,
    row('bare BullMQ', bare),
    row('pipeline', pipeline),
    '',
    `  ratio (pipeline / bare BullMQ, median of the rounds' ratios): ${ratio.toFixed(2)}`,
    '',
    `  pipeline stages (ms)${''.padEnd(26)}${'p50'.padStart(10)}${'p95'.padStart(10)}${'p99'.padStart(10)}`,
    ...stages.map(
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
    // The pipeline's events come from commands: it cannot run faster than they do with nothing else
    // on the machine, whatever the relay and the consumers cost.
    `  ceiling of the ratio set by the commands alone: ${(commandSide.withEvent / bare.perSecond).toFixed(2)} ` +
      "(commands/s recording an event over bare BullMQ's median round)",
    ...cpuBoundLines(commandSide, bare),
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
  const settings = readArguments();
  const { events, warmup, rounds } = settings;
  const environment = benchEnvironment();
  const databaseName = new URL(environment.DATABASE_URL).pathname.slice(1);
  let app: INestApplicationContext | undefined;
  const cleanUp = cleanUpOnce(
    environment,
    async () => {
      await stopWorkerProcesses();
      await app?.close().catch((error: Error) => console.error(`closing the command side: ${error.message}`));
    },
    () => {
      interrupted = true;
    },
  );

  try {
    console.log(`Database ${databaseName}, Redis prefix ${environment.QUEUE_PREFIX}`);
    await redisReachable(environment.REDIS_URL);
    await migrateDatabase(environment.DATABASE_URL);
    await createBenchTables(environment.DATABASE_URL);

    app = await NestFactory.createApplicationContext(CommandSideModule.forRoot(environment), {
      logger: ['error', 'warn'],
    });
    console.log(`Command side alone: ${events} commands with an event, ${events} without …`);
    const commandSide = await benchCommandSide(app, events);

    console.log(`Warm-up: ${warmup} bare BullMQ jobs, ${warmup} pipeline commands …`);
    const bare = await BareBullmq.start(environment, warmup);
    const workers = await WorkerProcess.start(
      'pipeline workers',
      'bench/pipeline-workers.ts',
      environmentVariables(environment, { WORKER_ROLES: 'relay,events', SERVICE_NAME: 'bench-workers' }),
    );
    const pipeline = await Pipeline.start(app, workers, warmup);

    // Both sides stay up and take turns, in alternating order (bare first in odd rounds), so that
    // a spell of another load on the machine weighs on both alike.
    const bareRounds: Summary[] = [];
    const pipelineRounds: Summary[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      console.log(`Round ${round} of ${rounds}: ${events} bare BullMQ jobs, ${events} pipeline events …`);
      if (round % 2 === 1) bareRounds.push(await bare.round(events));
      pipelineRounds.push(await pipeline.round(events));
      if (round % 2 === 0) bareRounds.push(await bare.round(events));
    }
    await bare.stop();

    report(environment, settings, bareRounds, pipelineRounds, await pipeline.stages(), commandSide);
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
