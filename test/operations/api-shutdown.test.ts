import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD } from '@offers/api/identity/admin-seed';
import { SERVICE_BUSY } from '@offers/api/rules/http';
import pg from 'pg';
import { BEARER_SIGN_IN } from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { freePort, type RunningProcess, startNode } from '../support/processes.js';
import { holdTableLock } from '../support/table-lock.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';

/** Long database waits: only the stop decides when the request in flight ends. */
const PATIENT = {
  API_LOCK_TIMEOUT_MS: '30000',
  API_STATEMENT_TIMEOUT_MS: '30000',
  REQUEST_TIMEOUT_MS: '30000',
};

let test: TestEnvironment;
let api: RunningProcess | undefined;

beforeAll(async () => {
  test = await createTestEnvironment('api shutdown');
  const seeded = startNode('api/dist/src/demo/cli.js', test.variables);
  await new Promise((resolve) => seeded.child.on('exit', resolve));
  // Every seed of `npm start`: a minute or more on a busy two-core machine.
}, 180_000);

afterEach(async () => {
  await api?.stop('SIGKILL');
  api = undefined;
});

afterAll(async () => {
  await test?.cleanup();
});

async function startApiProcess(settings: Record<string, string>) {
  const [port, operationsPort] = [await freePort(), await freePort()];
  api = startNode('api/dist/src/main.js', {
    ...test.variables,
    ...PATIENT,
    PORT: String(port),
    API_OPERATIONS_PORT: String(operationsPort),
    ...settings,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await eventually(
    async () => (await send(baseUrl, { method: 'GET', url: '/api/health/live' })).statusCode === 200,
    'the API to answer',
    60_000,
  );
  const signIn = await send(baseUrl, {
    method: 'POST',
    url: '/api/auth/admin/login',
    headers: BEARER_SIGN_IN,
    payload: { username: 'admin', password: DEVELOPMENT_ADMIN_PASSWORD },
  });
  return {
    process: api,
    baseUrl,
    operationsUrl: `http://127.0.0.1:${operationsPort}`,
    admin: { authorization: `Bearer ${signIn.json().token}` },
  };
}

const hasExited = (process: RunningProcess) =>
  process.child.exitCode !== null || process.child.signalCode !== null;

it('finishes the requests in flight on SIGTERM, taking no new ones and reporting itself not ready', async () => {
  const started = await startApiProcess({ SHUTDOWN_GRACE_MS: '20000' });
  const release = await holdTableLock(test.environment.DATABASE_URL, 'coupons', 'ACCESS EXCLUSIVE');
  try {
    const inFlight = send(started.baseUrl, {
      method: 'GET',
      url: '/api/admin/coupons',
      headers: started.admin,
    });
    await eventually(async () => (await lockWaiters())[0].waiting > 0, 'the request to wait on the lock');
    started.process.child.kill('SIGTERM');

    const ready = await eventually(async () => {
      const answer = await send(started.operationsUrl, { method: 'GET', url: '/health/ready' });
      return answer.statusCode === 503 && answer;
    }, 'readiness to say it is stopping');
    expect(ready.json().reasons).toContain('shutting down');
    await expect(send(started.baseUrl, { method: 'GET', url: '/api/health/live' })).rejects.toThrow(
      /ECONNREFUSED/,
    );
    expect(hasExited(started.process)).toBe(false);

    await release();
    const answer = await inFlight;
    expect(answer.statusCode).toBe(200);
    await eventually(async () => hasExited(started.process), 'the process to end');
  } finally {
    await release();
  }
});

it('answers what still runs at the end of the grace period with 503, then ends', async () => {
  const started = await startApiProcess({ SHUTDOWN_GRACE_MS: '1000' });
  const release = await holdTableLock(test.environment.DATABASE_URL, 'coupons', 'ACCESS EXCLUSIVE');
  try {
    const inFlight = send(started.baseUrl, {
      method: 'GET',
      url: '/api/admin/coupons',
      headers: started.admin,
    });
    await eventually(async () => (await lockWaiters())[0].waiting > 0, 'the request to wait on the lock');
    const stopped = Date.now();
    started.process.child.kill('SIGTERM');

    const answer = await inFlight;
    expect(answer.statusCode).toBe(503);
    expect(answer.json()).toEqual({ statusCode: 503, message: SERVICE_BUSY.message });
    expect(answer.headers['retry-after']).toBe(String(SERVICE_BUSY.retryAfterSeconds));
    await eventually(async () => hasExited(started.process), 'the process to end', 15_000);
    expect(Date.now() - stopped).toBeLessThan(15_000);
    expect(started.process.output()).toMatch(/answered 1 running requests with 503/);
  } finally {
    await release();
  }
});

async function lockWaiters(): Promise<Array<{ waiting: number }>> {
  const client = new pg.Client({ connectionString: test.environment.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );
    return rows;
  } finally {
    await client.end();
  }
}
