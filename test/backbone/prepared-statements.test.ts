import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DomainEvent } from '@offers/api/events';
import { appendToOutbox, dataSourceOptions, preparedStatement, runPrepared } from '@offers/api/platform';
import { applyOnce, markProcessed, OutboxPublisher } from '@offers/workers/events';
import { DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';

class ThingNoted extends DomainEvent<{ note: string }> {
  readonly type = 'ThingNoted';
  readonly aggregateType = 'Thing';
}

const published = (event: ThingNoted) => ({
  ...event,
  position: '0',
  occurredAt: event.occurredAt.toISOString(),
});

const preparedHere = async (manager: EntityManager): Promise<string[]> =>
  (await manager.query('SELECT name FROM pg_prepared_statements ORDER BY name')).map(
    (row: { name: string }) => row.name,
  );

const outboxRows = async (dataSource: DataSource, id: string) =>
  (await dataSource.query('SELECT count(*)::int AS n FROM outbox WHERE id = $1', [id]))[0].n;

let test: TestEnvironment;
let dataSource: DataSource;

beforeAll(async () => {
  test = await createTestEnvironment('prepared-statements');
  // Two connections: a statement that kept the connection it borrowed would soon leave none.
  // Named statements live in a session: PostgreSQL itself, never a transaction pooler (whose
  // unnamed statements connections.test.ts covers).
  dataSource = new DataSource({
    ...dataSourceOptions(test.environment.DATABASE_DIRECT_URL, { size: 2, waitMs: 2000 }),
  });
  await dataSource.initialize();
});

afterAll(async () => {
  await dataSource?.destroy();
  await test?.cleanup();
});

describe('the event pipeline statements', () => {
  it('are prepared on the connection that runs them, and used again there', async () => {
    const names = await dataSource.transaction(async (manager) => {
      const first = new ThingNoted('a', { note: 'first' });
      const second = new ThingNoted('b', { note: 'second' });
      await appendToOutbox(manager, [first]);
      await appendToOutbox(manager, [second]);
      const consumer = { name: 'notes', handles: ['ThingNoted'], handle: async () => undefined };
      await applyOnce(consumer, [published(first), published(second)], manager);
      await markProcessed(manager, [published(first), published(second)]);
      return preparedHere(manager);
    });

    expect(names).toEqual(expect.arrayContaining(['inbox-record', 'outbox-append', 'outbox-mark-processed']));
  });

  it('has the relay claim and mark with prepared statements', async () => {
    const event = new ThingNoted('c', { note: 'relayed' });
    await dataSource.transaction((manager) => appendToOutbox(manager, [event]));
    const jobs: Array<{ opts: { jobId: string } }> = [];
    const queue = { addBulk: async (added: typeof jobs) => jobs.push(...added) };
    const publisher = new OutboxPublisher(dataSource, queue as never, { attempts: 1, backoffMs: 10 });

    // The earlier test's events are in the outbox too.
    expect(await publisher.publishPending()).toBe(3);
    expect(jobs.map((job) => job.opts.jobId)).toContain(event.id);
    const [row] = await dataSource.query('SELECT published_at FROM outbox WHERE id = $1', [event.id]);
    expect(row.published_at).not.toBeNull();
    // Both connections of the pool have been used by now; one of them prepared the relay's claim.
    const names = await Promise.all([
      dataSource.transaction(preparedHere),
      dataSource.transaction(preparedHere),
    ]);
    expect(names.flat()).toEqual(
      expect.arrayContaining(['outbox-claim-unpublished', 'outbox-mark-published']),
    );
  });
});

describe('a prepared statement', () => {
  const insertNote = preparedStatement(
    'test-insert-note',
    `INSERT INTO outbox (id, type, aggregate_type, aggregate_id, payload)
     VALUES ($1, 'ThingNoted', 'Thing', $2, '{}') RETURNING aggregate_id`,
  );

  it("runs in the caller's transaction: its change goes when the transaction rolls back", async () => {
    const event = new ThingNoted('d', { note: 'rolled back' });
    await expect(
      dataSource.transaction(async (manager) => {
        const rows = await runPrepared<{ aggregate_id: string }>(manager, insertNote, [event.id, 'd']);
        expect(rows).toEqual([{ aggregate_id: 'd' }]);
        expect(await outboxRows(dataSource, event.id)).toBe(0); // not committed: others do not see it
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');

    expect(await outboxRows(dataSource, event.id)).toBe(0);
  });

  it('outside a transaction, borrows a connection and gives it back', async () => {
    const ids = Array.from({ length: 12 }, () => new ThingNoted('e', { note: 'alone' }).id);
    // Six rounds of two at once on a pool of two: a connection kept would make a call wait and fail.
    for (let i = 0; i < ids.length; i += 2) {
      await Promise.all(
        ids.slice(i, i + 2).map((id) => runPrepared(dataSource.manager, insertNote, [id, 'e'])),
      );
    }

    const [{ n }] = await dataSource.query("SELECT count(*)::int AS n FROM outbox WHERE aggregate_id = 'e'");
    expect(n).toBe(12);
  });

  it("fails as TypeORM's QueryFailedError with the database's code, and the connection goes on", async () => {
    const event = new ThingNoted('f', { note: 'twice' });
    await runPrepared(dataSource.manager, insertNote, [event.id, 'f']);

    const failure = await runPrepared(dataSource.manager, insertNote, [event.id, 'f']).catch(
      (error) => error,
    );
    expect(failure).toBeInstanceOf(QueryFailedError);
    expect((failure as QueryFailedError & { code?: string }).code).toBe('23505');
    expect(
      await runPrepared(dataSource.manager, insertNote, [new ThingNoted('f', { note: '' }).id, 'f']),
    ).toEqual([{ aggregate_id: 'f' }]);
  });
});
