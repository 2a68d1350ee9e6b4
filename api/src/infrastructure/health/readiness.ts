import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import type { Environment } from '../config/environment.js';
import { outboxBacklog } from '../events/queries/outbox.js';
import { LOCK_WAITS } from './queries/readiness.js';

/** Past any of these the process is not ready; 0 turns a check off (see Environment). */
export interface ReadinessThresholds {
  maxUnpublishedAgeSeconds: number;
  maxEventLagSeconds: number;
  maxFailedEvents: number;
  maxQueueDepth: number;
  maxLockWaitMs: number;
  maxPoolWaiting: number;
  /** Each check's own limit: a check that takes longer counts as failed. */
  checkTimeoutMs: number;
}

export function readinessThresholds(environment: Environment): ReadinessThresholds {
  return {
    maxUnpublishedAgeSeconds: environment.READY_MAX_UNPUBLISHED_AGE_SECONDS,
    maxEventLagSeconds: environment.READY_MAX_EVENT_LAG_SECONDS,
    maxFailedEvents: environment.READY_MAX_FAILED_EVENTS,
    maxQueueDepth: environment.READY_MAX_QUEUE_DEPTH,
    maxLockWaitMs: environment.READY_MAX_LOCK_WAIT_MS,
    maxPoolWaiting: environment.READY_MAX_POOL_WAITING,
    checkTimeoutMs: environment.HEALTH_CHECK_TIMEOUT_MS,
  };
}

export interface ReadinessSources {
  /**
   * The pool the database checks borrow a connection from: the API's access pool, which callers
   * of the main pool never hold, or a workers process's one pool. No connection of its own.
   */
  database: DataSource;
  /** This process's pools by name, whose use is reported (and whose queues of callers count). */
  pools: Record<string, DataSource>;
  redis: Redis;
  queues: Queue[];
  thresholds: ReadinessThresholds;
}

export interface PoolState {
  max: number;
  open: number;
  idle: number;
  waiting: number;
}

type Failed = { error: string };

export interface ReadinessReport {
  status: 'ready' | 'unavailable';
  /** Why not ready, one line each; empty when ready. */
  reasons: string[];
  /**
   * What a part of the product reports for an operator's attention without making the process
   * unready (a feed source long without a successful run), one line each, by part.
   */
  notices: Record<string, string[]>;
  checks: {
    database: { up: true; latencyMs: number } | ({ up: false } & Failed);
    locks: { waiting: number; longestWaitMs: number; tables: string[] } | Failed;
    pools: Record<string, PoolState>;
    redis: { up: true; latencyMs: number } | ({ up: false } & Failed);
    outbox:
      | {
          unpublished: number;
          oldestUnpublishedSeconds: number;
          unprocessed: number;
          oldestUnprocessedSeconds: number;
          failed: number;
        }
      | Failed;
    queues: Record<string, Record<string, number>> | Failed;
  };
}

class CheckTimeout extends Error {}

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The pg pool behind a TypeORM data source (its driver keeps it as `master`). */
export function poolOf(dataSource: DataSource): pg.Pool | undefined {
  return (dataSource.driver as unknown as { master?: pg.Pool }).master;
}

/**
 * What a monitor or a load balancer needs to know about a process: is its database reachable
 * (through a connection of the access pool in the API, so a crowd holding the main pool cannot
 * make a healthy database look down), is anything stuck on a lock, are the pools' queues of callers growing, is Redis there,
 * and is the event pipeline keeping up. Concurrent callers share one run of the checks.
 */
export class ReadinessProbe {
  private running?: Promise<ReadinessReport>;
  private stopping = false;
  private readonly noticeChecks = new Map<string, () => Promise<string[]>>();

  constructor(private readonly sources: ReadinessSources) {}

  /** Adds a part's notices to every report; a check that fails reports its error as its notice. */
  addNotices(part: string, check: () => Promise<string[]>): void {
    this.noticeChecks.set(part, check);
  }

  private async notices(): Promise<Record<string, string[]>> {
    const entries = await Promise.all(
      [...this.noticeChecks].map(async ([part, check]) => {
        const lines = await within(this.sources.thresholds.checkTimeoutMs, check()).catch(
          (error: unknown) => [`could not check: ${describe(error)}`],
        );
        return [part, lines] as const;
      }),
    );
    return Object.fromEntries(entries.filter(([, lines]) => lines.length > 0));
  }

  /** From now on the process reports itself not ready (it is draining before it stops). */
  markStopping(): void {
    this.stopping = true;
  }

  check(): Promise<ReadinessReport> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Nothing of its own to close: the probe borrows a pool's connection for each run. */
  async close(): Promise<void> {}

  private async run(): Promise<ReadinessReport> {
    const { thresholds } = this.sources;
    const [database, redis, queues, notices] = await Promise.all([
      this.databaseChecks(),
      this.redisCheck(),
      this.queueCheck(),
      this.notices(),
    ]);
    const pools = this.poolStates();
    const checks: ReadinessReport['checks'] = { ...database, pools, redis, queues };
    const reasons: string[] = [];
    const over = (limit: number, value: number) => limit > 0 && value > limit;

    if (this.stopping) reasons.push('shutting down');
    if (!checks.database.up) reasons.push(`database: ${checks.database.error}`);
    if ('error' in checks.locks) {
      if (checks.database.up) reasons.push(`locks: ${checks.locks.error}`);
    } else if (over(thresholds.maxLockWaitMs, checks.locks.longestWaitMs)) {
      const tables = checks.locks.tables.length > 0 ? ` (${checks.locks.tables.join(', ')})` : '';
      reasons.push(
        `locks: ${checks.locks.waiting} statements waiting, the longest ${checks.locks.longestWaitMs} ms${tables}`,
      );
    }
    for (const [name, pool] of Object.entries(pools)) {
      if (over(thresholds.maxPoolWaiting, pool.waiting)) {
        reasons.push(`pool ${name}: ${pool.waiting} callers waiting for its ${pool.max} connections`);
      }
    }
    if (!checks.redis.up) reasons.push(`redis: ${checks.redis.error}`);
    const outbox = checks.outbox;
    if ('error' in outbox) {
      if (checks.database.up) reasons.push(`outbox: ${outbox.error}`);
    } else {
      if (over(thresholds.maxUnpublishedAgeSeconds, outbox.oldestUnpublishedSeconds)) {
        reasons.push(
          `outbox: the oldest unpublished event is ${Math.round(outbox.oldestUnpublishedSeconds)} s old (${outbox.unpublished} unpublished)`,
        );
      }
      if (over(thresholds.maxEventLagSeconds, outbox.oldestUnprocessedSeconds)) {
        reasons.push(
          `events: the oldest unprocessed event was published ${Math.round(outbox.oldestUnprocessedSeconds)} s ago (${outbox.unprocessed} unprocessed)`,
        );
      }
      if (over(thresholds.maxFailedEvents, outbox.failed)) {
        reasons.push(`events: ${outbox.failed} failed`);
      }
    }
    if ('error' in queues) {
      if (checks.redis.up) reasons.push(`queues: ${queues.error}`);
    } else {
      for (const [name, counts] of Object.entries(queues)) {
        const depth = (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0);
        if (over(thresholds.maxQueueDepth, depth)) reasons.push(`queue ${name}: ${depth} jobs waiting`);
      }
    }
    return { status: reasons.length === 0 ? 'ready' : 'unavailable', reasons, notices, checks };
  }

  /** Ping, lock waits and the outbox, one after the other on a connection borrowed from the pool. */
  private async databaseChecks(): Promise<Pick<ReadinessReport['checks'], 'database' | 'locks' | 'outbox'>> {
    const timeoutMs = this.sources.thresholds.checkTimeoutMs;
    let client: pg.PoolClient;
    const started = performance.now();
    try {
      client = await this.borrow(timeoutMs);
    } catch (error) {
      const failed = { error: describe(error) };
      return { database: { up: false, ...failed }, locks: failed, outbox: failed };
    }
    let broken = false;
    const query = async (sql: string) => {
      try {
        return await this.query(client, sql);
      } catch (error) {
        if (error instanceof CheckTimeout) broken = true;
        throw error;
      }
    };
    try {
      try {
        await query('SELECT 1');
      } catch (error) {
        const failed = { error: describe(error) };
        return { database: { up: false, ...failed }, locks: failed, outbox: failed };
      }
      const latencyMs = Math.round((performance.now() - started) * 10) / 10;
      const database = { up: true as const, latencyMs };
      const locks = await query(LOCK_WAITS).then(
        ([row]) => ({ waiting: row.waiting, longestWaitMs: row.longest_ms, tables: row.tables }),
        (error: unknown) => ({ error: describe(error) }),
      );
      const outbox = await outboxBacklog(query).then(
        (row) => ({
          unpublished: row.unpublished,
          oldestUnpublishedSeconds: round(row.oldest_unpublished_seconds),
          unprocessed: row.unprocessed,
          oldestUnprocessedSeconds: round(row.oldest_unprocessed_seconds),
          failed: row.failed,
        }),
        (error: unknown) => ({ error: describe(error) }),
      );
      return { database, locks, outbox };
    } finally {
      // A connection whose statement outlived the check is in doubt: the pool drops it.
      client.release(broken || undefined);
    }
  }

  /**
   * One statement, in a transaction of its own whose limits are the check's: it ends at the check
   * timeout on the server side too, so a locked table costs one timeout. One message: the limits
   * cost no round trip, and a transaction pooler keeps the three statements on one connection.
   */
  private async query(client: pg.PoolClient, sql: string) {
    const timeoutMs = this.sources.thresholds.checkTimeoutMs;
    const limits = `SET LOCAL statement_timeout = ${timeoutMs}; SET LOCAL lock_timeout = ${Math.max(100, Math.floor(timeoutMs / 2))}`;
    try {
      const results = (await within(
        timeoutMs,
        client.query(`${limits}; ${sql}`),
      )) as unknown as pg.QueryResult[];
      return results.at(-1)!.rows;
    } catch (error) {
      if ((error as { code?: string }).code === '57014')
        throw new Error('no answer within the check timeout');
      if ((error as { code?: string }).code === '55P03') throw new Error('waiting for a lock');
      throw error;
    }
  }

  /** A connection of the checks' pool within the check timeout; one that comes later goes back. */
  private async borrow(timeoutMs: number): Promise<pg.PoolClient> {
    const pool = poolOf(this.sources.database);
    if (!pool) throw new Error('the database is not connected');
    const borrowing = pool.connect();
    try {
      return await within(timeoutMs, borrowing);
    } catch (error) {
      borrowing.then(
        (client) => client.release(),
        () => undefined,
      );
      throw error;
    }
  }

  private async redisCheck(): Promise<ReadinessReport['checks']['redis']> {
    const { redis } = this.sources;
    if (redis.status !== 'ready') return { up: false, error: `connection ${redis.status}` };
    const started = performance.now();
    try {
      await within(this.sources.thresholds.checkTimeoutMs, redis.ping());
      return { up: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
    } catch (error) {
      return { up: false, error: describe(error) };
    }
  }

  private async queueCheck(): Promise<ReadinessReport['checks']['queues']> {
    if (this.sources.redis.status !== 'ready') return { error: 'Redis unavailable' };
    try {
      const counts = await within(
        this.sources.thresholds.checkTimeoutMs,
        Promise.all(
          this.sources.queues.map(async (queue) => [
            queue.name,
            await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'),
          ]),
        ),
      );
      return Object.fromEntries(counts);
    } catch (error) {
      return { error: describe(error) };
    }
  }

  private poolStates(): Record<string, PoolState> {
    const states: Record<string, PoolState> = {};
    for (const [name, dataSource] of Object.entries(this.sources.pools)) {
      const pool = poolOf(dataSource);
      if (!pool) continue;
      states[name] = {
        max: (pool as unknown as { options: { max: number } }).options.max,
        open: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      };
    }
    return states;
  }
}

const round = (seconds: number) => Math.round(Number(seconds) * 10) / 10;
