import type { PoolClient, QueryResultRow } from 'pg';
import { type EntityManager, QueryFailedError } from 'typeorm';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner.js';
import { UNNAMED_STATEMENTS } from './transaction-limits.js';

/**
 * A statement each connection parses and plans once and then only binds and runs. A statement
 * sent through `manager.query` is parsed, analysed and planned by PostgreSQL on every call; the
 * event pipeline's statements run once per command, relay pass or lot (pgbench, the command's
 * transaction at 16 connections: 1.17-1.32 times the commits per second prepared, more with
 * pg_stat_statements loaded). Only for fixed SQL run very often: each name stays prepared on
 * every connection of the pool for the connection's life. Behind a transaction pooler
 * (DATABASE_POOLER=transaction) the same text is sent unnamed: parsed and planned on each run.
 */
export interface PreparedStatement {
  /** Unique within the process: node-postgres refuses one name for two texts. */
  readonly name: string;
  readonly text: string;
}

export function preparedStatement(name: string, text: string): PreparedStatement {
  return { name, text };
}

/**
 * Runs the statement in the transaction (or on a connection) of `manager` and answers its rows.
 * A failure is thrown as TypeORM's QueryFailedError, as `manager.query` throws it, so the callers'
 * checks of the driver's error code (busy-errors.ts) read it the same way.
 */
export async function runPrepared<Row extends QueryResultRow = QueryResultRow>(
  manager: EntityManager,
  statement: PreparedStatement,
  values: unknown[],
): Promise<Row[]> {
  const runner = manager.queryRunner ?? manager.connection.createQueryRunner();
  try {
    // The runner's connection (checked out of the pool for a transaction, or now for this call).
    const client = (await (runner as PostgresQueryRunner).connect()) as PoolClient;
    const extra = (manager.connection.options as { extra?: Record<string, unknown> }).extra;
    const name = extra?.[UNNAMED_STATEMENTS] ? undefined : statement.name;
    const result = await client.query<Row>({ name, text: statement.text, values });
    return result.rows;
  } catch (error) {
    manager.connection.logger.logQueryError(error as Error, statement.text, undefined, runner);
    throw new QueryFailedError(statement.text, undefined, error as Error);
  } finally {
    if (runner !== manager.queryRunner) await runner.release();
  }
}
