import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { QueueRegistry } from '@offers/api/infrastructure/jobs/queue-registry';
import pg from 'pg';
import { outboxPublisher } from '../../workers/src/events/outbox-relay.service.js';
import {
  appliedCount,
  createLedgerTables,
  LedgerProjection,
  RecordEntry,
  TroubledConsumer,
} from '../support/ledger.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

let test: TestEnvironment;
/** Commands and the relay. */
let commands: WorkersApp;
const consumers: WorkersApp[] = [];

beforeAll(async () => {
  test = await createTestEnvironment('processed marks');
  commands = await startWorkers(test.environment, ['relay'], []);
  await createLedgerTables(commands.dataSource);
});

afterEach(async () => {
  await Promise.all(consumers.splice(0).map((consumer) => consumer.close()));
});

afterAll(async () => {
  await commands?.close();
  await test?.cleanup();
});

async function recordPublished(amount: number): Promise<string> {
  const entryId = await commands.commands.execute(new RecordEntry(amount));
  const eventId = await eventually(async () => {
    const [row] = await commands.dataSource.query(
      'SELECT id FROM outbox WHERE aggregate_id = $1 AND published_at IS NOT NULL',
      [entryId],
    );
    return row?.id as string | undefined;
  }, 'the event to be published');
  return eventId;
}

const outboxRow = async (eventId: string) =>
  (
    await commands.dataSource.query('SELECT processed_at, failed_at, last_error FROM outbox WHERE id = $1', [
      eventId,
    ])
  )[0];

const jobState = (eventId: string) => commands.domainEvents.getJobState(eventId);

const republish = () =>
  outboxPublisher(
    commands.dataSource,
    commands.module.get(QueueRegistry),
    test.environment,
  ).republishUnprocessed(0);

describe('processed marks', () => {
  it("commits an event's effect with its processed mark, and completes its job only after both", async () => {
    const eventId = await recordPublished(1);
    // Hold the event's outbox row: the mark has to wait, and the effect with it.
    const holder = new pg.Client({ connectionString: test.environment.DATABASE_URL });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM outbox WHERE id = $1 FOR UPDATE', [eventId]);
    try {
      consumers.push(await startWorkers(test.environment, ['events'], [LedgerProjection]));
      await eventually(async () => (await jobState(eventId)) === 'active', 'the worker to take the event');
      // Given a moment, the unmarked event's job is still running, and its effect not committed.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await jobState(eventId)).toBe('active');
      expect(await appliedCount(commands.dataSource, 'ledger-projection')).toBe(0);
      expect((await outboxRow(eventId)).processed_at).toBeNull();
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    await eventually(async () => (await jobState(eventId)) === 'completed', 'the job to complete');
    expect((await outboxRow(eventId)).processed_at).not.toBeNull();
    expect(await appliedCount(commands.dataSource, 'ledger-projection')).toBe(1);
  });

  it('offers again an unmarked event whose completed job BullMQ still keeps', async () => {
    consumers.push(await startWorkers(test.environment, ['events'], [LedgerProjection]));
    const eventId = await recordPublished(2);
    await eventually(
      async () => (await outboxRow(eventId)).processed_at !== null,
      'the event to be processed',
    );
    await eventually(async () => (await jobState(eventId)) === 'completed', 'its job to complete');
    const applied = await appliedCount(commands.dataSource, 'ledger-projection');

    // A mark lost (as an earlier version could lose it in a kill): BullMQ keeps the finished job.
    await commands.dataSource.query('UPDATE outbox SET processed_at = NULL WHERE id = $1', [eventId]);
    expect(await republish()).toBe(1);

    await eventually(
      async () => (await outboxRow(eventId)).processed_at !== null,
      'the event to be marked again',
    );
    // Offered again, not applied again: the consumer's inbox knew it.
    expect(await appliedCount(commands.dataSource, 'ledger-projection')).toBe(applied);
  });

  it('writes back the failure of an event whose failed job BullMQ keeps', async () => {
    const troubled = await startWorkers(test.environment, ['events'], [TroubledConsumer]);
    consumers.push(troubled);
    const eventId = await recordPublished(13); // always fails
    await eventually(async () => (await outboxRow(eventId)).failed_at !== null, 'the event to fail');
    const attempts = troubled.module.get(TroubledConsumer).attempts.get(eventId);

    await commands.dataSource.query('UPDATE outbox SET failed_at = NULL, last_error = NULL WHERE id = $1', [
      eventId,
    ]);
    await republish();

    const row = await outboxRow(eventId);
    expect(row.failed_at).not.toBeNull();
    expect(row.last_error).toMatch(/can never be applied/);
    expect(await jobState(eventId)).toBe('failed');
    expect(troubled.module.get(TroubledConsumer).attempts.get(eventId)).toBe(attempts);
  });
});
