import pg from 'pg';

export interface TransactionLimits {
  statementTimeoutMs?: number;
  lockTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
}

/**
 * Marks the options of a pool whose prepared statements go unnamed (runPrepared): a transaction
 * pooler hands each transaction any server connection, where a name prepared on another is
 * unknown (PgBouncer supports named statements in transaction mode only from 1.21).
 */
export const UNNAMED_STATEMENTS = 'unnamedStatements';

/** The statement opening a transaction, as TypeORM (`START TRANSACTION`) and pg users (`BEGIN`) send it. */
const OPENS_TRANSACTION = /^\s*(START\s+TRANSACTION|BEGIN)\b[^;]*;?\s*$/i;

/** `SET LOCAL` statements for the limits, or undefined when there are none. */
export function setLocalLimits(limits: TransactionLimits): string | undefined {
  const settings: string[] = [];
  // Whole numbers of milliseconds from validated settings: nothing to quote.
  if (limits.statementTimeoutMs !== undefined)
    settings.push(`SET LOCAL statement_timeout = ${Math.floor(limits.statementTimeoutMs)}`);
  if (limits.lockTimeoutMs !== undefined)
    settings.push(`SET LOCAL lock_timeout = ${Math.floor(limits.lockTimeoutMs)}`);
  if (limits.idleInTransactionTimeoutMs !== undefined)
    settings.push(
      `SET LOCAL idle_in_transaction_session_timeout = ${Math.floor(limits.idleInTransactionTimeoutMs)}`,
    );
  return settings.length > 0 ? settings.join('; ') : undefined;
}

/**
 * A pg client class whose transactions set the pool's limits themselves: the statement that opens
 * one carries `SET LOCAL` for each limit in the same message (no extra round trip). Behind a
 * transaction pooler a connection's settings cannot be sent when it opens (PgBouncer refuses
 * unknown startup parameters) nor set for the session (the server connection goes to other
 * clients after each transaction), while a transaction stays on one server connection to its end,
 * so its local settings are exactly its own. Statements outside a transaction are bounded by the
 * role's defaults (docs/deployment.md § Connections and the pooler).
 */
export function clientSettingLimitsPerTransaction(limits: TransactionLimits): typeof pg.Client {
  const settings = setLocalLimits(limits);
  if (settings === undefined) return pg.Client;
  class LimitedClient extends pg.Client {
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloads, passed through unchanged
    override query(config: any, values?: any, callback?: any): any {
      const noValues = values === undefined || typeof values === 'function' || values.length === 0;
      if (typeof config === 'string' && noValues && OPENS_TRANSACTION.test(config)) {
        config = `${config.trim().replace(/;$/, '')}; ${settings}`;
      }
      return super.query(config, values, callback);
    }
  }
  return LimitedClient;
}
