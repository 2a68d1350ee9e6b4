import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { QueueName, QueueRegistry, ScheduledJob } from '@offers/api/platform';
import { EventDispatcher, rebuildProjection } from '@offers/workers/events';
import { appliedCount, createLedgerTables, LedgerProjection, RecordEntry } from '../support/ledger.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

let test: TestEnvironment;
let workers: WorkersApp;

beforeAll(async () => {
  test = await createTestEnvironment('maintenance');
  workers = await startWorkers(test.environment, ['relay', 'events', 'scheduler'], [LedgerProjection]);
  await createLedgerTables(workers.dataSource);
});

afterAll(async () => {
  await workers?.close();
  await test?.cleanup();
});

describe('scheduled jobs', () => {
  it('are registered once as BullMQ job schedulers', async () => {
    const maintenance = workers.module.get(QueueRegistry).get(QueueName.Maintenance);

    const schedulers = await eventually(async () => {
      const found = await maintenance.getJobSchedulers();
      return found.length === Object.values(ScheduledJob).length ? found : undefined;
    }, 'the schedules');
    expect(schedulers).toEqual(
      expect.arrayContaining(
        Object.values(ScheduledJob).map(({ name, everyMs }) =>
          expect.objectContaining({ key: name, every: everyMs }),
        ),
      ),
    );
    expect(schedulers).toHaveLength(Object.values(ScheduledJob).length);
    // The retention sweeps among them, each once.
    expect(schedulers.map((scheduler) => scheduler.key)).toEqual(
      expect.arrayContaining([
        ScheduledJob.SweepAnonymousClicks.name,
        ScheduledJob.PurgeHandledInbox.name,
        ScheduledJob.RemoveExpiredKeptRecords.name,
      ]),
    );
  });

  it('offer again an event whose job vanished, which then takes effect once', async () => {
    const entryId = await workers.commands.execute(new RecordEntry(3));
    await eventually(
      async () => (await appliedCount(workers.dataSource, 'ledger-projection')) === 1,
      'delivery',
    );
    const [{ id: eventId }] = await workers.dataSource.query(
      'SELECT id FROM outbox WHERE aggregate_id = $1',
      [entryId],
    );
    // As if the processed mark were lost in a crash and the job removed from Redis.
    await eventually(
      async () => (await workers.domainEvents.getJobState(eventId)) === 'completed',
      'completion',
    );
    await (await workers.domainEvents.getJob(eventId))!.remove();
    await workers.dataSource.query(
      "UPDATE outbox SET processed_at = NULL, published_at = now() - interval '10 minutes' WHERE id = $1",
      [eventId],
    );

    const maintenance = workers.module.get(QueueRegistry).get(QueueName.Maintenance);
    await maintenance.add(ScheduledJob.RedeliverStaleEvents.name, {});

    await eventually(
      async () =>
        (await workers.dataSource.query('SELECT processed_at FROM outbox WHERE id = $1', [eventId]))[0]
          .processed_at,
      'the event to be offered again and processed',
    );
    // The outbox is marked inside the handler; BullMQ completes the job just after it returns.
    await eventually(
      async () => (await workers.domainEvents.getJobState(eventId)) === 'completed',
      'the new job to complete',
    );
    expect(await appliedCount(workers.dataSource, 'ledger-projection')).toBe(1);
  });
});

describe('rebuilding a projection', () => {
  it('replays the event log into an emptied read model', async () => {
    for (const amount of [10, 20, 30]) await workers.commands.execute(new RecordEntry(amount));
    await eventually(
      async () => (await appliedCount(workers.dataSource, 'ledger-projection')) === 4,
      'delivery',
    );
    const before = await workers.dataSource.query(
      "SELECT event_id, amount FROM ledger_applied WHERE consumer = 'ledger-projection' ORDER BY event_id",
    );
    await workers.dataSource.query(
      "UPDATE ledger_applied SET amount = -1 WHERE consumer = 'ledger-projection'",
    );

    const projection = workers.module
      .get(EventDispatcher)
      .consumers.find((c) => c.name === 'ledger-projection')!;
    const replayed = await rebuildProjection(workers.dataSource, projection);

    expect(replayed).toBe(4);
    const after = await workers.dataSource.query(
      "SELECT event_id, amount FROM ledger_applied WHERE consumer = 'ledger-projection' ORDER BY event_id",
    );
    expect(after).toEqual(before);
  });
});

describe('sign-in housekeeping', () => {
  it('removes expired and idle sessions and sign-in failures older than the longest window, and nothing else', async () => {
    await workers.dataSource.query(`
      INSERT INTO sessions (cookie_token_hash, bearer_token_hash, xsrf_token, role, account_id, expires_at, last_used_at) VALUES
        ('c1', 'b1', 'x', 'user', 1, now() - interval '1 minute', now()),
        ('c2', 'b2', 'x', 'user', 1, now() + interval '1 day', now() - interval '23 hours'),
        ('c3', NULL, 'x', 'user', 1, now() + interval '1 day', now() - interval '25 hours');
      INSERT INTO sign_in_failures (key, failed_at) VALUES
        ('user:old', now() - interval '61 minutes'), ('user:new', now() - interval '59 minutes');
    `);
    const maintenance = workers.module.get(QueueRegistry).get(QueueName.Maintenance);

    await maintenance.add(ScheduledJob.PurgeExpiredSignIns.name, {});

    await eventually(
      async () => (await workers.dataSource.query('SELECT cookie_token_hash FROM sessions')).length === 1,
      'the expired session to go',
    );
    expect(await workers.dataSource.query('SELECT cookie_token_hash FROM sessions')).toEqual([
      { cookie_token_hash: 'c2' },
    ]);
    await eventually(
      async () => (await workers.dataSource.query('SELECT key FROM sign_in_failures')).length === 1,
      'the old failure to go',
    );
    expect(await workers.dataSource.query('SELECT key FROM sign_in_failures')).toEqual([{ key: 'user:new' }]);
  });
});
