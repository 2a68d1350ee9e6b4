/**
 * What the benchmarks and the processes they start have in common: names, settings, and how a
 * process measures its own load while a phase is measured.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import {
  closeRedisConnection,
  createRedisConnection,
  deleteKeysUnder,
  dropDatabase,
  type Environment,
  validateEnvironment,
} from '@offers/api/platform';
import type pg from 'pg';
import type { DataSource } from 'typeorm';

export const BENCH_EVENT = 'BenchItemCreated';
/** The queue of the bare BullMQ reference, next to (not instead of) `domain-events`. */
export const BARE_QUEUE = 'bench-bare';

/** `[job id, timestamp, processedOn, finishedOn]` of one job the bare worker completed. */
export type CompletedJob = [string, number, number, number];

/** How busy one process was during a measured phase. */
export interface Load {
  /** Share of the time the event loop was running code rather than waiting for I/O. */
  eventLoop: number;
  /** CPU time of the process over wall time (1 = one core fully used). */
  cpu: number;
  /** CPU time of the process, in ms. */
  cpuMs: number;
}

/** How many queries of a process waited for a free connection of its PostgreSQL pool. */
export interface PoolWaiting {
  size: number;
  mean: number;
  max: number;
}

export interface ProcessMeasure {
  load: Load;
  /** Only for processes with a database pool. */
  pool?: PoolWaiting;
}

/** Starts measuring this process; the returned function ends the measure and gives the figures. */
export function measureProcess(dataSource?: DataSource): () => ProcessMeasure {
  const loop = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const startedAt = performance.now();
  const pool = dataSource && samplePoolWaits(dataSource);
  return () => {
    const used = process.cpuUsage(cpu);
    const load = {
      eventLoop: performance.eventLoopUtilization(loop).utilization,
      cpu: (used.user + used.system) / 1000 / (performance.now() - startedAt),
      cpuMs: (used.user + used.system) / 1000,
    };
    return pool ? { load, pool: pool() } : { load };
  };
}

/** How busy the whole machine was: PostgreSQL, Redis and every process together. */
export interface MachineLoad {
  cores: number;
  /** Share of all cores' time that was not idle. */
  busy: number;
  /** CPU time of PostgreSQL's and Redis's processes, in ms (undefined without Linux's /proc). */
  services?: { postgres: number; redis: number };
}

/** The processes of each service, by the command name /proc gives them. */
const SERVICE_COMMANDS = { postgres: 'postgres', redis: 'redis-server' } as const;
/** Linux counts process CPU time in clock ticks of 1/100 s (USER_HZ) on every common platform. */
const TICK_MS = 10;

/** CPU time so far of every process of each service, in ms; undefined where /proc is missing. */
function serviceCpuMs(): Record<keyof typeof SERVICE_COMMANDS, number> | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const totals = { postgres: 0, redis: 0 };
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const service = (Object.keys(SERVICE_COMMANDS) as (keyof typeof SERVICE_COMMANDS)[]).find(
      (key) => SERVICE_COMMANDS[key] === command,
    );
    if (!service) continue;
    // Fields after the command: state is the 1st, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    totals[service] += (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  }
  return totals;
}

export function measureMachine(): () => MachineLoad {
  const times = () =>
    cpus().reduce(
      (sum, cpu) => {
        const { idle, ...others } = cpu.times;
        return {
          idle: sum.idle + idle,
          total: sum.total + idle + Object.values(others).reduce((a, b) => a + b, 0),
        };
      },
      { idle: 0, total: 0 },
    );
  const before = times();
  // Processes that end during the phase take their time with them: the pools' connections last.
  const servicesBefore = serviceCpuMs();
  return () => {
    const after = times();
    const total = after.total - before.total;
    const servicesAfter = serviceCpuMs();
    return {
      cores: cpus().length,
      busy: total > 0 ? 1 - (after.idle - before.idle) / total : Number.NaN,
      services:
        servicesBefore && servicesAfter
          ? {
              postgres: servicesAfter.postgres - servicesBefore.postgres,
              redis: servicesAfter.redis - servicesBefore.redis,
            }
          : undefined,
    };
  };
}

function samplePoolWaits(dataSource: DataSource): () => PoolWaiting {
  const pool = (dataSource.driver as unknown as { master: pg.Pool }).master;
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

/** BullMQ and the API would wait for an unreachable Redis; a benchmark fails at once instead. */
export async function redisReachable(redisUrl: string): Promise<void> {
  const redis = createRedisConnection(redisUrl, 'client');
  try {
    await redis.ping();
  } catch (error) {
    throw new Error(`Redis at ${redisUrl} is unreachable: ${(error as Error).message}`);
  } finally {
    closeRedisConnection(redis);
  }
}

/** The settings of a benchmark run: a database and queue prefix of its own. */
export function benchEnvironment(): Environment {
  const base = validateEnvironment({ ...process.env, LOG_LEVEL: 'warn' });
  const suffix = randomBytes(4).toString('hex');
  const databaseUrl = new URL(base.DATABASE_URL);
  databaseUrl.pathname = `/offers_bench_${suffix}`;
  return validateEnvironment({
    ...process.env,
    DATABASE_URL: databaseUrl.toString(),
    QUEUE_PREFIX: `offers-bench-${suffix}`,
    LOG_LEVEL: 'warn',
    // The load generator is on loopback: a bench measures the product, not its rate limits.
    RATE_LIMIT_EXEMPT: process.env.RATE_LIMIT_EXEMPT ?? 'loopback',
  });
}

/** The settings as environment variables, for a process the benchmark starts. */
export function environmentVariables(
  environment: Environment,
  extra: Record<string, string>,
): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined) variables[name] = String(value);
  }
  return { ...variables, ...extra };
}

/** A command-line option that must be a positive integer, or its default when not given. */
export function positiveOption(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new Error(`--${name} must be a positive integer`);
  return parsed;
}

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * A benchmark's clean-up, run once however the run ends (finished, failed, Ctrl-C or SIGTERM): it
 * releases what the benchmark opened, then drops the run's database and Redis keys, so an
 * interrupted run leaves nothing behind on the machine.
 */
export function cleanUpOnce(
  environment: Environment,
  release: () => Promise<void>,
  /** Told first when a signal stops the run, so a measurement in flight can stop reporting. */
  onSignal?: () => void,
): () => Promise<void> {
  const databaseName = new URL(environment.DATABASE_URL).pathname.slice(1);
  let cleaning: Promise<void> | undefined;
  const cleanUp = () => {
    cleaning ??= (async () => {
      await release();
      await dropDatabase(environment.DATABASE_URL).catch((error: Error) =>
        console.error(`dropping ${databaseName}: ${error.message}`),
      );
      await deleteKeysUnder(environment.REDIS_URL, environment.QUEUE_PREFIX).catch((error: Error) =>
        console.error(`deleting Redis keys ${environment.QUEUE_PREFIX}:*: ${error.message}`),
      );
    })();
    return cleaning;
  };
  const stop = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: cleaning up`);
    onSignal?.();
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return cleanUp;
}
