import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { appliedCount, createLedgerTables, LedgerProjection, RecordEntry } from '../support/ledger.js';
import { DisposableRedis, freePort } from '../support/processes.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

let redis: DisposableRedis;
let test: TestEnvironment;
let workers: WorkersApp;
let consumers: WorkersApp | undefined;

beforeAll(async () => {
  redis = new DisposableRedis(await freePort());
  await redis.start();
  test = await createTestEnvironment('redis outage', { REDIS_URL: redis.url });
  // Consumers start only after the outage, so the jobs published before it are lost with Redis.
  workers = await startWorkers(test.environment, ['relay', 'scheduler'], [LedgerProjection]);
  await createLedgerTables(workers.dataSource);
});

afterAll(async () => {
  await consumers?.close();
  await workers?.close();
  await test?.cleanup();
  await redis?.kill();
});

it('loses no event when Redis stops while commands run, and applies none twice', async () => {
  const entries: string[] = [];
  for (let i = 1; i <= 100; i += 1) {
    if (i === 31) {
      await eventually(
        async () => (await workers.domainEvents.getJobCounts('waiting')).waiting === 30,
        'the first 30 events to be published',
      );
      await redis.kill();
    }
    entries.push(await workers.commands.execute(new RecordEntry(i)));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(entries).toHaveLength(100);
  const [{ n: events }] = await workers.dataSource.query('SELECT count(*)::int AS n FROM outbox');
  expect(events).toBe(100);
  const [{ n: waiting }] = await workers.dataSource.query(
    'SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL',
  );
  expect(waiting).toBe(70);

  await redis.start();
  consumers = await startWorkers(test.environment, ['events'], [LedgerProjection]);
  await eventually(
    async () => (await appliedCount(workers.dataSource, 'ledger-projection')) === 100,
    'all 100 events to reach the consumer',
    30_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 500)); // room for a stray duplicate to show
  const applied = await workers.dataSource.query(
    'SELECT count(*)::int AS total, count(DISTINCT event_id)::int AS distinct_events FROM ledger_applied',
  );
  expect(applied).toEqual([{ total: 100, distinct_events: 100 }]);
  const [{ n: pending }] = await workers.dataSource.query(
    'SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL',
  );
  expect(pending).toBe(0);
});
