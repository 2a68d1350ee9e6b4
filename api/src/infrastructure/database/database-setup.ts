import pg from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';

/** Splits a database URL into the database name and a URL of the server's maintenance database. */
function maintenanceTarget(databaseUrl: string): { name: string; serverUrl: string } {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
  url.pathname = '/postgres';
  return { name, serverUrl: url.toString() };
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Creates the database named in the URL when it does not exist yet. Returns whether it did. */
export async function createDatabaseIfMissing(databaseUrl: string): Promise<boolean> {
  const { name, serverUrl } = maintenanceTarget(databaseUrl);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    await client.query(`CREATE DATABASE ${quoteIdentifier(name)}`);
    return true;
  } catch (error) {
    // Created meanwhile by another process: "already exists", or the catalog's unique index when
    // both CREATE DATABASE statements ran at the same moment.
    if (['42P04', '23505'].includes((error as { code?: string }).code ?? '')) return false;
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * Creates the database as a copy of a migrated template on the same server: a copy takes a tenth
 * of the time of running every migration again, which is what the test files' own databases need.
 * A copy fails while anyone is connected to the template, so it is retried for a moment.
 */
export async function createDatabaseFromTemplate(databaseUrl: string, template: string): Promise<void> {
  const { name, serverUrl } = maintenanceTarget(databaseUrl);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${quoteIdentifier(name)} TEMPLATE ${quoteIdentifier(template)}`);
        return;
      } catch (error) {
        // 55006: the template is in use (a copy or a connection at this moment).
        if ((error as { code?: string }).code !== '55006' || attempt === 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * Drops the database. Connections that are still closing are given a moment to go (a pool reports
 * itself ended before the server has seen its sockets close); any left are then terminated.
 */
export async function dropDatabase(databaseUrl: string, graceMs = 2000): Promise<void> {
  const { name, serverUrl } = maintenanceTarget(databaseUrl);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const deadline = Date.now() + graceMs;
    for (;;) {
      const { rows } = await client.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if (rows[0].n === 0 || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Arbitrary but fixed: the key of the advisory lock that serialises concurrent migration runs. */
const MIGRATION_LOCK = 720_301;

/**
 * Creates the database if needed and applies pending migrations, one process at a time.
 * Returns the names of the migrations it applied.
 */
export async function migrateDatabase(databaseUrl: string): Promise<string[]> {
  await createDatabaseIfMissing(databaseUrl);
  const dataSource = new DataSource({ ...dataSourceOptions(databaseUrl, { size: 2 }), logging: ['error'] });
  await dataSource.initialize();
  const lock = dataSource.createQueryRunner();
  try {
    await lock.connect();
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await lock.release();
    await dataSource.destroy();
  }
}
