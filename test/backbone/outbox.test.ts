import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DomainEvent } from '@offers/api/infrastructure/events/domain-event';
import { UnitOfWork } from '@offers/api/infrastructure/events/unit-of-work';
import { EventDispatcher } from '../../workers/src/events/event-dispatcher.js';
import {
  appliedCount,
  createLedgerTables,
  EntryRecorded,
  LedgerProjection,
  RecordEntry,
  TroubledConsumer,
} from '../support/ledger.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

let test: TestEnvironment;
let workers: WorkersApp;

beforeAll(async () => {
  test = await createTestEnvironment('outbox');
  workers = await startWorkers(test.environment, ['relay', 'events'], [LedgerProjection, TroubledConsumer]);
  await createLedgerTables(workers.dataSource);
});

afterAll(async () => {
  await workers?.close();
  await test?.cleanup();
});

const count = async (sql: string, parameters: unknown[] = []) =>
  (await workers.dataSource.query(sql, parameters))[0].n as number;

describe('a command and its events', () => {
  it('leaves neither rows nor events when it throws after changing rows', async () => {
    await expect(workers.commands.execute(new RecordEntry(5, true))).rejects.toThrow(
      'the ledger refused the entry',
    );

    expect(await count('SELECT count(*)::int AS n FROM ledger_entries')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM outbox')).toBe(0);
  });

  it('writes exactly one event with the change, and the consumer applies it once', async () => {
    const entryId = await workers.commands.execute(new RecordEntry(5));

    const events = await workers.dataSource.query(
      'SELECT id, type, aggregate_type, aggregate_id, payload FROM outbox WHERE aggregate_id = $1',
      [entryId],
    );
    expect(events).toEqual([
      {
        id: expect.any(String),
        type: EntryRecorded.type,
        aggregate_type: 'LedgerEntry',
        aggregate_id: entryId,
        payload: { amount: 5 },
      },
    ]);
    await eventually(
      async () =>
        (await count('SELECT count(*)::int AS n FROM ledger_applied WHERE entry_id = $1', [entryId])) > 0,
      'the projection to apply the event',
    );
    await eventually(
      async () => (await count('SELECT count(*)::int AS n FROM outbox WHERE processed_at IS NOT NULL')) === 1,
      'the event to be marked processed',
    );
    expect(
      await count("SELECT count(*)::int AS n FROM ledger_applied WHERE consumer = 'ledger-projection'"),
    ).toBe(1);
  });

  it('writes the events of one transaction in the order recorded, their payloads as recorded', async () => {
    class NoteRecorded extends DomainEvent<object> {
      readonly type = 'NoteRecorded';
      readonly aggregateType = 'Note';
    }
    const payloads = [
      { text: 'a quote " a backslash \\ a comma , braces {} [] and NULL' },
      { text: 'हिन्दी में ऑफ़र, తెలుగు ఆఫర్లు, ₹1,299' },
      { nested: { list: [1, null, 'x', { deeper: true }] }, emptyText: '' },
      {},
      ...Array.from({ length: 60 }, (_, index) => ({ index })),
    ];
    const noteId = randomUUID();
    await workers.module.get(UnitOfWork).run(async (tx) => {
      tx.record(...payloads.map((payload) => new NoteRecorded(noteId, payload)));
    });

    const rows: { type: string; payload: object }[] = await workers.dataSource.query(
      'SELECT type, payload FROM outbox WHERE aggregate_id = $1 ORDER BY position',
      [noteId],
    );
    expect(rows.map((row) => row.payload)).toEqual(payloads);
    expect(new Set(rows.map((row) => row.type))).toEqual(new Set(['NoteRecorded']));
  });

  it('applies an event once in effect when its job is delivered twice', async () => {
    const entryId = await workers.commands.execute(new RecordEntry(5));
    const [{ id: eventId }] = await workers.dataSource.query(
      'SELECT id FROM outbox WHERE aggregate_id = $1',
      [entryId],
    );
    const projection = workers.module.get(LedgerProjection);
    await eventually(async () => projection.calls.includes(eventId), 'the first delivery');
    const job = await eventually(async () => {
      const found = await workers.domainEvents.getJob(eventId);
      return found && (await found.isCompleted()) ? found : undefined;
    }, 'the first job to complete');

    // A second delivery of the very same job, as after a stalled worker or a republish.
    await job.remove();
    await workers.domainEvents.add(job.name, job.data, { jobId: eventId });
    await eventually(
      async () => (await workers.domainEvents.getJobState(eventId)) === 'completed',
      'the second delivery to complete',
    );
    // And two deliveries at the same moment, racing for the inbox.
    const dispatcher = workers.module.get(EventDispatcher);
    await Promise.all([dispatcher.dispatch(job.data), dispatcher.dispatch(job.data)]);

    expect(await count('SELECT count(*)::int AS n FROM ledger_applied WHERE event_id = $1', [eventId])).toBe(
      2,
    ); // one per consumer
    expect(
      await count(
        "SELECT count(*)::int AS n FROM ledger_applied WHERE event_id = $1 AND consumer = 'ledger-projection'",
        [eventId],
      ),
    ).toBe(1);
    expect(projection.calls.filter((id) => id === eventId)).toHaveLength(1);
  });
});

describe('a consumer that fails', () => {
  it('is retried, and applies the event once when it finally succeeds', async () => {
    const entryId = await workers.commands.execute(new RecordEntry(7));
    const [{ id: eventId }] = await workers.dataSource.query(
      'SELECT id FROM outbox WHERE aggregate_id = $1',
      [entryId],
    );

    await eventually(
      async () => (await workers.domainEvents.getJobState(eventId)) === 'completed',
      'the flaky event to complete',
    );
    const job = await workers.domainEvents.getJob(eventId);
    expect(job?.attemptsMade).toBe(3);
    expect(workers.module.get(TroubledConsumer).attempts.get(eventId)).toBe(3);
    const applied = await workers.dataSource.query(
      'SELECT consumer, count(*)::int AS n FROM ledger_applied WHERE event_id = $1 GROUP BY consumer ORDER BY consumer',
      [eventId],
    );
    expect(applied).toEqual([
      { consumer: 'ledger-projection', n: 1 },
      { consumer: 'troubled-consumer', n: 1 },
    ]);
  });

  it('that always fails leaves a failed job with its error, and later events still flow', async () => {
    const poisonedEntry = await workers.commands.execute(new RecordEntry(13));
    const [{ id: poisonedEvent }] = await workers.dataSource.query(
      'SELECT id FROM outbox WHERE aggregate_id = $1',
      [poisonedEntry],
    );

    await eventually(
      async () => (await workers.domainEvents.getJobState(poisonedEvent)) === 'failed',
      'the poisoned event to fail',
    );
    const job = await workers.domainEvents.getJob(poisonedEvent);
    expect(job?.attemptsMade).toBe(3);
    expect(job?.failedReason).toBe(`entry ${poisonedEntry} can never be applied`);
    const [outboxRow] = await eventually(async () => {
      const rows = await workers.dataSource.query(
        'SELECT failed_at, last_error, processed_at FROM outbox WHERE id = $1 AND failed_at IS NOT NULL',
        [poisonedEvent],
      );
      return rows.length ? rows : undefined;
    }, 'the outbox to record the failure');
    expect(outboxRow).toMatchObject({
      last_error: `entry ${poisonedEntry} can never be applied`,
      processed_at: null,
    });
    expect(await appliedCount(workers.dataSource, 'troubled-consumer')).toBe(
      await count(
        "SELECT count(DISTINCT event_id)::int AS n FROM ledger_applied WHERE consumer = 'troubled-consumer'",
      ),
    );
    expect(
      await count(
        "SELECT count(*)::int AS n FROM ledger_applied WHERE event_id = $1 AND consumer = 'troubled-consumer'",
        [poisonedEvent],
      ),
    ).toBe(0);

    const laterEntry = await workers.commands.execute(new RecordEntry(5));
    await eventually(
      async () =>
        (await count(
          "SELECT count(*)::int AS n FROM ledger_applied WHERE entry_id = $1 AND consumer = 'troubled-consumer'",
          [laterEntry],
        )) === 1,
      'a later event to reach the consumer',
    );
  });
});
