import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD } from '@offers/api/demo';
import { BEARER_SIGN_IN } from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { freePort, type RunningProcess, startNode } from '../support/processes.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';

let test: TestEnvironment;
let api: RunningProcess;
let baseUrl: string;

beforeAll(async () => {
  test = await createTestEnvironment('api process');
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  const seeded = startNode('api/dist/src/demo/cli.js', test.variables);
  await new Promise((resolve) => seeded.child.on('exit', resolve));
  api = startNode('api/dist/src/main.js', { ...test.variables, PORT: String(port), LOG_LEVEL: 'info' });
  await eventually(
    async () => (await send(baseUrl, { method: 'GET', url: '/api/health' })).statusCode === 200,
    'the API to answer',
    60_000,
  );
  // Every seed of `npm start` runs first: a minute or more on a busy two-core machine.
}, 180_000);

afterAll(async () => {
  await api?.stop();
  await test?.cleanup();
});

it('serves the queue dashboard to the seeded admin, listing the queues', async () => {
  const signIn = await send(baseUrl, {
    method: 'POST',
    url: '/api/auth/admin/login',
    headers: BEARER_SIGN_IN,
    payload: { username: 'admin', password: DEVELOPMENT_ADMIN_PASSWORD },
  });
  const headers = { authorization: `Bearer ${signIn.json().token}` };
  const page = await send(baseUrl, { method: 'GET', url: '/api/admin/queues', headers });
  const queues = await send(baseUrl, { method: 'GET', url: '/api/admin/queues/api/queues', headers });
  const anonymous = await send(baseUrl, { method: 'GET', url: '/api/admin/queues/api/queues' });

  expect(signIn.statusCode).toBe(200);
  expect(anonymous.statusCode).toBe(401);

  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toContain('text/html');
  expect(
    queues
      .json()
      .queues.map((queue: { name: string }) => queue.name)
      .sort(),
  ).toEqual(['cdn-purges', 'domain-events', 'feed-imports', 'maintenance', 'newsletter-campaigns']);
});

it('writes one JSON log line per request, with its request id', async () => {
  await send(baseUrl, { method: 'GET', url: '/api/nowhere', headers: { 'x-request-id': 'trace-42' } });

  const line = await eventually(
    async () =>
      api
        .output()
        .split('\n')
        .filter((text) => text.startsWith('{'))
        .map((text) => JSON.parse(text))
        .find((entry) => entry.req?.id === 'trace-42'),
    'the request log line',
  );
  expect(line).toMatchObject({ service: 'api', res: { statusCode: 404 }, msg: 'request completed' });
});

it('shuts down on SIGTERM without an error', async () => {
  const exit = new Promise<[number | null, string | null]>((resolve) =>
    api.child.on('exit', (code, signal) => resolve([code, signal])),
  );
  api.child.kill('SIGTERM');

  // Nest closes the application, then lets the signal end the process as usual.
  expect(await exit).toEqual([null, 'SIGTERM']);
  const errors = api
    .output()
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text))
    .filter((entry) => entry.level >= 50);
  expect(errors).toEqual([]);
});
