import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import type { PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../../workers/src/events/event-consumer.js';
import { createLedgerTables, EntryRecorded, RecordEntry } from '../support/ledger.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

/** Writes, per event, the transaction that applied it. */
@Injectable()
class TransactionRecorder implements EventConsumer {
  readonly name = 'transaction-recorder';
  readonly handles = [EntryRecorded.type];

  async handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    await manager.query('INSERT INTO applied_in (event_id, tx) VALUES ($1, txid_current() % 4294967296)', [
      event.id,
    ]);
  }
}

const BURST = 120;

let test: TestEnvironment;
let commands: WorkersApp;
let consumers: WorkersApp | undefined;

beforeAll(async () => {
  test = await createTestEnvironment('event lots');
  commands = await startWorkers(test.environment, ['relay'], []);
  await createLedgerTables(commands.dataSource);
  await commands.dataSource.query('CREATE TABLE applied_in (event_id uuid NOT NULL, tx bigint NOT NULL)');
});

afterAll(async () => {
  await consumers?.close();
  await commands?.close();
  await test?.cleanup();
});

describe('event lots', () => {
  it('applies a burst of events in lots, each event once, its processed mark committed with its effect', async () => {
    await Promise.all(
      Array.from({ length: BURST }, (_, index) => commands.commands.execute(new RecordEntry(index))),
    );
    await eventually(
      async () => (await commands.domainEvents.getWaitingCount()) === BURST,
      'the burst to wait in the queue',
    );

    consumers = await startWorkers(test.environment, ['events'], [TransactionRecorder]);
    await eventually(async () => {
      const [row] = await commands.dataSource.query(
        "SELECT count(*)::int AS n FROM outbox WHERE type = 'EntryRecorded' AND processed_at IS NOT NULL",
      );
      return row.n === BURST;
    }, 'every event to be processed');

    const rows: Array<{ event_id: string; tx: string; marked_in: string }> = await commands.dataSource.query(
      `SELECT a.event_id, a.tx::text, o.xmin::text AS marked_in
       FROM applied_in a JOIN outbox o ON o.id = a.event_id`,
    );
    expect(rows).toHaveLength(BURST);
    expect(new Set(rows.map((row) => row.event_id)).size).toBe(BURST);
    // The mark is the outbox row's last change: the transaction that wrote it is the effect's.
    for (const row of rows) expect(row.marked_in).toBe(row.tx);
    // Many events per commit: a handful of lots, not a transaction per event.
    expect(new Set(rows.map((row) => row.tx)).size).toBeLessThanOrEqual(BURST / 8);
  });
});
