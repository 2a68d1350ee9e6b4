import pg from 'pg';
import { loadEnvironmentOrExit } from '../../config/environment.js';
import { poolLimits } from '../data-source-options.js';

/**
 * `npm run db:limits -- api|workers`: makes the statement, lock and idle-transaction limits of that
 * kind of process (its settings) the defaults of the role it connects as (DATABASE_URL's user), in
 * its database. Behind a transaction pooler the processes cannot send them when a connection opens
 * and set them per transaction only; the role's defaults bound the statements outside a
 * transaction too. Run over DATABASE_DIRECT_URL, as that role or one allowed to alter it; server
 * connections opened afterwards have them (PgBouncer's RECONNECT renews its own).
 */
const kind = process.argv[2];
if (kind !== 'api' && kind !== 'workers') {
  console.error('Usage: npm run db:limits -- api|workers');
  process.exit(1);
}
const environment = loadEnvironmentOrExit();
const limits = poolLimits(environment, kind);
const role = decodeURIComponent(new URL(environment.DATABASE_URL).username) || 'postgres';
const database = decodeURIComponent(new URL(environment.DATABASE_DIRECT_URL).pathname.slice(1));
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const settings = {
  statement_timeout: limits.statementTimeoutMs,
  lock_timeout: limits.lockTimeoutMs,
  idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs,
};
const client = new pg.Client({ connectionString: environment.DATABASE_DIRECT_URL });
try {
  await client.connect();
  for (const [name, ms] of Object.entries(settings)) {
    // Whole milliseconds from validated settings: nothing else reaches the statement.
    await client.query(
      `ALTER ROLE ${quote(role)} IN DATABASE ${quote(database)} SET ${name} = ${Number(ms)}`,
    );
  }
  console.log(
    `Role ${role} in ${database}: ${Object.entries(settings)
      .map(([name, ms]) => `${name} ${ms} ms`)
      .join(', ')}`,
  );
} catch (error) {
  console.error(
    `Setting the role's limits failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
} finally {
  await client.end().catch(() => undefined);
}
