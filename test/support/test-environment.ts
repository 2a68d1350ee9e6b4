import { randomBytes } from 'node:crypto';
import {
  createDatabaseFromTemplate,
  deleteKeysUnder,
  dropDatabase,
  type Environment,
  migrateDatabase,
  validateEnvironment,
} from '@offers/api/platform';
import pg from 'pg';

const SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432';
/**
 * A transaction pooler (PgBouncer) in front of that server, when the run goes through one (.ci/run's
 * second pass): the processes' pools then reach their database through it, with the pooler
 * settings on, while databases are made, LISTEN connections open and migrations run directly.
 */
const POOLED_SERVER_URL = process.env.TEST_DATABASE_POOLED_SERVER_URL || undefined;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The session secret of every environment this test file makes, shared by its API and workers
 * processes (they sign and check each other's links) and by helpers that follow a mailed link.
 */
export const TEST_SESSION_SECRET = randomBytes(32).toString('base64url');

export interface TestEnvironment {
  environment: Environment;
  /** Settings as environment variables, for child processes. */
  variables: Record<string, string>;
  cleanup(): Promise<void>;
}

/**
 * A migrated database and a Redis key prefix of the test file's own, so files run side by side
 * without seeing each other's rows or jobs.
 */
export async function createTestEnvironment(
  name: string,
  overrides: Record<string, string> = {},
): Promise<TestEnvironment> {
  const suffix = randomBytes(4).toString('hex');
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  const databaseName = `offers_test_${slug}_${suffix}`;
  const databaseUrl = `${SERVER_URL}/${databaseName}`;
  // The run's migrated template (made once by the global set-up), or the migrations themselves
  // when a file runs without it.
  const template = process.env.TEST_DATABASE_TEMPLATE;
  if (template) await createDatabaseFromTemplate(databaseUrl, template);
  else await migrateDatabase(databaseUrl);
  const variables: Record<string, string> = {
    NODE_ENV: 'test',
    ...(POOLED_SERVER_URL
      ? {
          DATABASE_URL: `${POOLED_SERVER_URL}/${databaseName}`,
          DATABASE_DIRECT_URL: databaseUrl,
          DATABASE_POOLER: 'transaction',
        }
      : { DATABASE_URL: databaseUrl }),
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `test-${slug}-${suffix}`,
    LOG_LEVEL: 'warn',
    EVENT_ATTEMPTS: '3',
    EVENT_BACKOFF_MS: '50',
    // Shared by the file's API and workers processes, which sign and check each other's links.
    SESSION_SECRET: TEST_SESSION_SECRET,
    // Each process's operations port (health, metrics) on a free port: files run side by side.
    API_OPERATIONS_PORT: '0',
    WORKERS_OPERATIONS_PORT: '0',
    WEB_OPERATIONS_PORT: '0',
    // Store alerts are mailed at once whatever the hour the tests run; their own test sets hours.
    STORE_ALERT_QUIET_HOURS: 'none',
    ...overrides,
  };
  const environment = validateEnvironment(variables);
  return {
    environment,
    variables,
    async cleanup() {
      // The pooler's server connections to the database go first, so the drop need not wait for them.
      if (POOLED_SERVER_URL)
        await closePooledConnections(POOLED_SERVER_URL, databaseName).catch(() => undefined);
      await dropDatabase(databaseUrl);
      // A test that ended with its own Redis stopped leaves nothing to clean.
      await deleteKeysUnder(environment.REDIS_URL, environment.QUEUE_PREFIX).catch(() => undefined);
    },
  };
}

/** Ends PgBouncer's connections to a database (its admin console's KILL). */
async function closePooledConnections(poolerUrl: string, databaseName: string): Promise<void> {
  const admin = new pg.Client({ connectionString: `${poolerUrl}/pgbouncer` });
  await admin.connect();
  try {
    await admin.query(`KILL ${databaseName}`);
  } finally {
    await admin.end();
  }
}

/** Polls until `check` returns a truthy value; fails with `description` after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false | null>,
  description: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${description}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
