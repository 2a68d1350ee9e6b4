import type { DataSourceOptions } from 'typeorm';
import type { Environment } from '../config/environment.js';
import { InboxEntry, OutboxEvent } from '../events/outbox-event.entity.js';
import { migrations } from './migrations/index.js';
import { QueryLogger } from './query-logger.js';
import { clientSettingLimitsPerTransaction, UNNAMED_STATEMENTS } from './transaction-limits.js';

/**
 * How long a connection of a pool may wait, and for what. Each limit ends the wait with an error
 * that the API answers as 503 with Retry-After (http/error-filter.ts), never a hang.
 */
export interface PoolLimits {
  size: number;
  /** Longest wait for a free connection, or for a new one to open (pg-pool's `connectionTimeoutMillis`). */
  waitMs?: number;
  /**
   * PostgreSQL settings sent when each connection opens: no extra round trip per query. Behind a
   * transaction pooler (`pooled`) they are set at the start of each transaction instead.
   */
  statementTimeoutMs?: number;
  lockTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
  /**
   * The address is a pooler in transaction mode (DATABASE_POOLER): it refuses settings sent when
   * a connection opens, and a session's settings would reach other clients' transactions.
   */
  pooled?: boolean;
}

/**
 * The API's second pool, for sessions and sign-in only (the access guard reads a session on every
 * request). A crowd of requests waiting on a locked table can hold every connection of the main
 * pool; these stay free, so people can still sign in and be recognised.
 */
export const ACCESS_POOL = 'access';

/** Which process a pool serves; each kind has its own limits (see {@link poolLimits}). */
export type PoolKind = 'api' | 'access' | 'workers';

/** The limits of a kind of pool, from the settings. */
export function poolLimits(environment: Environment, kind: PoolKind): PoolLimits {
  const pooled = environment.DATABASE_POOLER === 'transaction';
  const api = {
    pooled,
    waitMs: environment.DATABASE_POOL_WAIT_MS,
    statementTimeoutMs: environment.API_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: environment.API_LOCK_TIMEOUT_MS,
    idleInTransactionTimeoutMs: environment.API_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  };
  switch (kind) {
    case 'api':
      return { size: environment.DATABASE_POOL_SIZE, ...api };
    case 'access':
      return { size: environment.ACCESS_POOL_SIZE, ...api };
    case 'workers':
      return {
        size: environment.WORKERS_POOL_SIZE,
        pooled,
        waitMs: environment.DATABASE_POOL_WAIT_MS * 5,
        statementTimeoutMs: environment.WORKERS_STATEMENT_TIMEOUT_MS,
        lockTimeoutMs: environment.WORKERS_LOCK_TIMEOUT_MS,
        idleInTransactionTimeoutMs: environment.WORKERS_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      };
  }
}

/** The entity classes a data source maps (TypeORM under ESM takes classes, not globs). */
export type EntityClasses = readonly (new (...args: never[]) => object)[];

/**
 * A data source's options. The infrastructure maps its own tables (the outbox and the inbox); the
 * features' entities come from the process that opens it (`featureEntities` of api/src/entities.ts).
 */
export function dataSourceOptions(
  databaseUrl: string,
  pool: PoolLimits = { size: 20 },
  entities: EntityClasses = [],
): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: [OutboxEvent, InboxEntry, ...entities],
    migrations,
    migrationsTableName: 'migrations',
    // The schema changes only through migrations.
    synchronize: false,
    migrationsRun: false,
    logging: ['error', 'warn', 'migration'],
    // Failed statements are logged without their parameters (users' data).
    logger: new QueryLogger(),
    extra: {
      max: pool.size,
      application_name: process.env.SERVICE_NAME ?? 'offers',
      ...(pool.waitMs !== undefined && { connectionTimeoutMillis: pool.waitMs }),
      ...(pool.pooled
        ? { Client: clientSettingLimitsPerTransaction(pool), [UNNAMED_STATEMENTS]: true }
        : {
            ...(pool.statementTimeoutMs !== undefined && { statement_timeout: pool.statementTimeoutMs }),
            ...(pool.lockTimeoutMs !== undefined && { lock_timeout: pool.lockTimeoutMs }),
            ...(pool.idleInTransactionTimeoutMs !== undefined && {
              idle_in_transaction_session_timeout: pool.idleInTransactionTimeoutMs,
            }),
          }),
    },
  };
}
