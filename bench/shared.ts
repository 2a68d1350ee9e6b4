/**
 * What the event benchmark (bench/events.ts) and the worker processes it starts have in common:
 * names, and how a process measures its own load while a phase is measured.
 */
import { cpus } from 'node:os';
import type pg from 'pg';
import type { DataSource } from 'typeorm';
import { closeRedisConnection, createRedisConnection } from '../api/src/redis/redis-connection.js';

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
    };
    return pool ? { load, pool: pool() } : { load };
  };
}

/** How busy the whole machine was: PostgreSQL, Redis and every process together. */
export interface MachineLoad {
  cores: number;
  /** Share of all cores' time that was not idle. */
  busy: number;
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
  return () => {
    const after = times();
    const total = after.total - before.total;
    return { cores: cpus().length, busy: total > 0 ? 1 - (after.idle - before.idle) / total : Number.NaN };
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
