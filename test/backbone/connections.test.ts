import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  ChangeListener,
  dataSourceOptions,
  poolLimits,
  preparedStatement,
  runPrepared,
  validateEnvironment,
} from '@offers/api/platform';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { createWebServer } from '../../web-public/server/web-server.js';
import { send } from '../support/api-app.js';
import { type PgBouncer, pgBouncer } from '../support/pgbouncer.js';
import { freePort, ROOT, type RunningProcess, startNode } from '../support/processes.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';

/**
 * The connections a deployment behind PgBouncer (transaction pooling) relies on: one LISTEN
 * connection per process, straight to PostgreSQL; pools whose sizes are the settings; prepared
 * statements and limits that hold on whatever server connection a transaction gets.
 */

let bouncer: PgBouncer;
let test: TestEnvironment;
/** The test file's database, directly and through the pooler. */
let directUrl: string;
let pooledUrl: string;
let databaseName: string;
let direct: pg.Client;
/** Settings of processes that reach the database through the pooler. */
let pooledVariables: Record<string, string>;

beforeAll(async () => {
  bouncer = await pgBouncer();
  test = await createTestEnvironment('connections');
  directUrl = test.environment.DATABASE_DIRECT_URL;
  databaseName = new URL(directUrl).pathname.slice(1);
  pooledUrl = `${bouncer.url}/${databaseName}`;
  pooledVariables = {
    ...test.variables,
    DATABASE_URL: pooledUrl,
    DATABASE_DIRECT_URL: directUrl,
    DATABASE_POOLER: 'transaction',
  };
  direct = new pg.Client({ connectionString: directUrl });
  await direct.connect();
}, 60_000);

afterAll(async () => {
  await direct?.end();
  await test?.cleanup();
  await bouncer?.stop();
});

/** A data source of the given kind of pool with these settings, as the processes open theirs. */
async function openPool(
  kind: 'api' | 'access' | 'workers',
  url: string,
  settings: Record<string, string>,
): Promise<DataSource> {
  const environment = validateEnvironment({ ...pooledVariables, ...settings, DATABASE_URL: url });
  const dataSource = new DataSource(dataSourceOptions(url, poolLimits(environment, kind)));
  await dataSource.initialize();
  return dataSource;
}

describe('the API, a workers process and the site server behind the pooler', () => {
  let api: RunningProcess;
  let workers: RunningProcess;
  let site: Awaited<ReturnType<typeof createWebServer>> | undefined;
  let baseUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    api = startNode('api/dist/src/main.js', { ...pooledVariables, PORT: String(port), SERVICE_NAME: 'api' });
    workers = startNode('workers/dist/src/main.js', { ...pooledVariables, SERVICE_NAME: 'workers' });
    await eventually(
      async () => (await send(baseUrl, { method: 'GET', url: '/api/health' })).statusCode === 200,
      'the API to answer',
      60_000,
    );
    // The site server in this test's process: nothing else here listens.
    site = await createWebServer({
      environment: validateEnvironment({ ...pooledVariables, API_UPSTREAM_URL: baseUrl }),
      publicUrl: 'https://offers.example.in',
    });
    await site.listen({ port: 0, host: '127.0.0.1' });
  }, 90_000);

  afterAll(async () => {
    await site?.close();
    await Promise.all([api?.stop(), workers?.stop()]);
  });

  const listening = async () => {
    const { rows } = await direct.query<{ application_name: string; connections: number }>(
      `SELECT application_name, count(*)::int AS connections FROM pg_stat_activity
       WHERE datname = $1 AND query LIKE 'LISTEN%' GROUP BY application_name ORDER BY application_name`,
      [databaseName],
    );
    return Object.fromEntries(rows.map((row) => [row.application_name, row.connections]));
  };

  it('opens one LISTEN connection per process, to PostgreSQL itself, whatever its caches and listeners', async () => {
    // The API's four caches, the workers' mail sender, the site's two caches: one each.
    const expected = { 'api-changes': 1, 'offers-changes': 1, 'workers-changes': 1 };
    await eventually(
      async () => JSON.stringify(await listening()) === JSON.stringify(expected),
      'the listeners',
    );
    // And it stays one: nothing opens another a moment later.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await listening()).toEqual(expected);
  });

  it('answers reads and readiness through the pooler, with no database connection of the probe its own', async () => {
    const listings = await send(baseUrl, { method: 'GET', url: '/api/coupons' });
    expect(listings.statusCode).toBe(200);
    const ready = await send(baseUrl, { method: 'GET', url: '/api/health/ready' });
    expect({ status: ready.statusCode, output: ready.statusCode === 200 ? '' : api.output() }).toEqual({
      status: 200,
      output: '',
    });
    const page = await fetch(`http://127.0.0.1:${(site!.server.address() as { port: number }).port}/`);
    expect(page.status).toBe(200);
    const { rows } = await direct.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name LIKE '%-health'",
      [databaseName],
    );
    expect(rows[0].n).toBe(0);
  });
});

describe("a process's listeners", () => {
  it('share one connection, each told only of its channels, and all of its loss and return', async () => {
    const told = { a: 0, b: 0 };
    const warn = { warn: () => undefined };
    const first = new ChangeListener(directUrl, ['hub_test_a'], () => (told.a += 1), warn);
    const second = new ChangeListener(directUrl, ['hub_test_b', 'hub_test_a'], () => (told.b += 1), warn);
    const listeners = async () => {
      const { rows } = await direct.query(
        "SELECT pid, query FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%hub_test%'",
        [databaseName],
      );
      return rows as { pid: number; query: string }[];
    };
    first.start();
    await eventually(async () => first.listening, 'the first listening');
    second.start();
    await eventually(async () => second.listening, 'the second listening');
    try {
      expect(await listeners()).toHaveLength(1);
      told.a = 0;
      told.b = 0;
      await direct.query('NOTIFY hub_test_b');
      await eventually(async () => told.b === 1, 'the second told');
      await direct.query('NOTIFY hub_test_a');
      await eventually(async () => told.a === 1 && told.b === 2, 'both told');
      expect(told).toEqual({ a: 1, b: 2 });

      // Lost: both stop listening (what relies on them keeps nothing) until it is back.
      const [{ pid }] = await listeners();
      await direct.query('SELECT pg_terminate_backend($1)', [pid]);
      await eventually(async () => !first.listening && !second.listening, 'both down');
      expect(told.a).toBeGreaterThan(1);
      expect(told.b).toBeGreaterThan(2);
      await eventually(async () => first.listening && second.listening, 'both back', 10_000);
      const again = await listeners();
      expect(again).toHaveLength(1);
      expect(again[0]!.pid).not.toBe(pid);
    } finally {
      await first.stop();
      await second.stop();
    }
    // The last one gone, the connection closes.
    await eventually(async () => (await listeners()).length === 0, 'the connection closed');
  });
});

describe('prepared statements behind the pooler', () => {
  const statement = preparedStatement('connections-test-sum', 'SELECT $1::int + $2::int AS sum');

  it('run unnamed, on whatever server connection each transaction gets', async () => {
    const pool = await openPool('workers', pooledUrl, {
      DATABASE_POOLER: 'transaction',
      WORKERS_POOL_SIZE: '4',
    });
    try {
      const sums = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          pool.transaction(async (manager) => {
            const [row] = await runPrepared<{ sum: number }>(manager, statement, [i, 1]);
            return row!.sum;
          }),
        ),
      );
      expect(sums).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      // Nothing is left prepared under the statement's name on the connection that ran it.
      const prepared = await pool.transaction(async (manager) => {
        await runPrepared(manager, statement, [1, 2]);
        return manager.query('SELECT count(*)::int AS n FROM pg_prepared_statements');
      });
      expect(prepared).toEqual([{ n: 0 }]);
    } finally {
      await pool.destroy();
    }
  });

  it('stay named on a direct connection', async () => {
    const pool = await openPool('workers', directUrl, { DATABASE_POOLER: 'none' });
    try {
      const names = await pool.transaction(async (manager) => {
        await runPrepared(manager, statement, [1, 2]);
        return manager.query('SELECT name FROM pg_prepared_statements');
      });
      expect(names).toEqual([{ name: statement.name }]);
    } finally {
      await pool.destroy();
    }
  });
});

describe('limits behind the pooler', () => {
  it("end a transaction's statement at the statement timeout, and a lock wait at the lock timeout", async () => {
    const pool = await openPool('api', pooledUrl, {
      DATABASE_POOLER: 'transaction',
      API_STATEMENT_TIMEOUT_MS: '300',
      API_LOCK_TIMEOUT_MS: '200',
    });
    const holder = new pg.Client({ connectionString: directUrl });
    await holder.connect();
    try {
      await expect(pool.transaction((manager) => manager.query('SELECT pg_sleep(5)'))).rejects.toMatchObject({
        driverError: expect.objectContaining({ code: '57014' }),
      });
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE outbox IN ACCESS EXCLUSIVE MODE');
      await expect(
        pool.transaction((manager) => manager.query('SELECT count(*) FROM outbox')),
      ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '55P03' }) });
      // The limits are the transaction's own: the pooler's server connection keeps none of them.
      const [{ statement_timeout }] = await pool.query('SHOW statement_timeout');
      expect(statement_timeout).toBe('0');
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
      await pool.destroy();
    }
  });
});

describe('pool sizes', () => {
  /** How many connections of `pool` wait at once on a lock the test holds, when 8 statements want it. */
  async function connectionsAtOnce(pool: DataSource, key: number): Promise<number> {
    const holder = new pg.Client({ connectionString: directUrl });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [key]);
    const statements = Array.from({ length: 8 }, () => pool.query('SELECT pg_advisory_xact_lock($1)', [key]));
    try {
      const waiting = async () => {
        const { rows } = await direct.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE 'SELECT pg_advisory_xact_lock%'`,
          [databaseName],
        );
        return rows[0].n as number;
      };
      // The pool's callers beyond its size wait for a connection, not for the lock.
      const pgPool = (pool.driver as unknown as { master: pg.Pool }).master;
      // Read after PostgreSQL's count: a statement between the two is missed, never counted twice.
      await eventually(async () => (await waiting()) + pgPool.waitingCount === 8, 'every statement to wait');
      return await waiting();
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1)', [key]);
      await holder.end();
      await Promise.all(statements);
    }
  }

  it('opens at most the connections each setting names, for each kind of pool', async () => {
    const settings = {
      DATABASE_POOL_SIZE: '2',
      ACCESS_POOL_SIZE: '1',
      WORKERS_POOL_SIZE: '3',
      DATABASE_POOL_WAIT_MS: '60000',
    };
    const counts: Record<string, number> = {};
    for (const [kind, key] of [
      ['api', 7101],
      ['access', 7102],
      ['workers', 7103],
    ] as const) {
      const pool = await openPool(kind, directUrl, { ...settings, DATABASE_POOLER: 'none' });
      try {
        counts[kind] = await connectionsAtOnce(pool, key);
      } finally {
        await pool.destroy();
      }
    }
    expect(counts).toEqual({ api: 2, access: 1, workers: 3 });
  });
});

describe("the role's limits (npm run db:limits)", () => {
  it('bound statements outside a transaction behind the pooler', async () => {
    const settings = { WORKERS_STATEMENT_TIMEOUT_MS: '300', WORKERS_LOCK_TIMEOUT_MS: '200' };
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['api/dist/src/infrastructure/database/cli/role-limits.js', 'workers'],
        { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...pooledVariables, ...settings } },
      );
      expect(stdout).toContain(
        `Role postgres in ${databaseName}: statement_timeout 300 ms, lock_timeout 200 ms`,
      );
      // The pooler's server connections opened before keep the old defaults: new ones get these.
      const admin = new pg.Client({ connectionString: `${bouncer.url}/pgbouncer` });
      await admin.connect();
      await admin.query(`RECONNECT ${databaseName}`).finally(() => admin.end());

      const pool = await openPool('workers', pooledUrl, { ...settings, DATABASE_POOLER: 'transaction' });
      try {
        await expect(pool.query('SELECT pg_sleep(5)')).rejects.toMatchObject({
          driverError: expect.objectContaining({ code: '57014' }),
        });
      } finally {
        await pool.destroy();
      }
    } finally {
      await direct.query(`ALTER ROLE postgres IN DATABASE ${databaseName} RESET ALL`);
    }
  });
});
