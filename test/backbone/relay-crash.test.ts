import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { appliedCount, createLedgerTables, LedgerProjection, RecordEntry } from '../support/ledger.js';
import { type RunningProcess, startNode } from '../support/processes.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

let test: TestEnvironment;
let app: WorkersApp;
let relay: RunningProcess | undefined;

beforeAll(async () => {
  test = await createTestEnvironment('relay crash');
  app = await startWorkers(test.environment, [], [LedgerProjection]); // commands only, no relay
  await createLedgerTables(app.dataSource);
});

afterAll(async () => {
  await relay?.stop('SIGKILL');
  await app?.close();
  await test?.cleanup();
});

const startRelay = () => startNode('workers/dist/src/main.js', { ...test.variables, WORKER_ROLES: 'relay' });

const unpublished = async () =>
  (await app.dataSource.query('SELECT count(*)::int AS n FROM outbox WHERE published_at IS NULL'))[0]
    .n as number;

it('creates no second job when the relay dies between publishing and marking the events sent', async () => {
  for (const amount of [1, 2, 3, 4, 5]) await app.commands.execute(new RecordEntry(amount));
  const eventIds: string[] = (await app.dataSource.query('SELECT id FROM outbox ORDER BY position')).map(
    (row: { id: string }) => row.id,
  );

  // Hold a lock that lets the relay claim and publish the rows but not mark them published.
  const blocker = new pg.Client({ connectionString: test.environment.DATABASE_URL });
  await blocker.connect();
  await blocker.query('BEGIN');
  await blocker.query('LOCK TABLE outbox IN SHARE MODE');
  try {
    relay = startRelay();
    await eventually(
      async () => (await app.domainEvents.getJobCounts('waiting')).waiting === 5,
      'the relay to publish the five jobs',
    );
    expect(await unpublished()).toBe(5);
    await relay.stop('SIGKILL');
  } finally {
    await blocker.query('ROLLBACK');
    await blocker.end();
  }
  expect(await unpublished()).toBe(5);

  relay = startRelay();
  await eventually(
    async () => (await unpublished()) === 0,
    'the restarted relay to mark the events published',
  );
  await relay.stop();

  const jobs = await app.domainEvents.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed']);
  expect(jobs.map((job) => job.id).sort()).toEqual([...eventIds].sort());

  // And consumed, each event takes effect once.
  const consumers = await startWorkers(test.environment, ['events'], [LedgerProjection]);
  try {
    await eventually(
      async () => (await appliedCount(app.dataSource, 'ledger-projection')) === 5,
      'consumption',
    );
    const perEvent = await app.dataSource.query(
      'SELECT count(*)::int AS n FROM ledger_applied GROUP BY event_id HAVING count(*) > 1',
    );
    expect(perEvent).toEqual([]);
  } finally {
    await consumers.close();
  }
});
