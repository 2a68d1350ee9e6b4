import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainEvent, type PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
import { UnitOfWork } from '@offers/api/infrastructure/events/unit-of-work';
import type { DataSource, EntityManager } from 'typeorm';
import type { EventConsumer } from '../../workers/src/events/event-consumer.js';

/**
 * A tiny domain for exercising the backbone: recording a ledger entry is a command that writes a
 * row and emits `EntryRecorded`; consumers project entries into a read model.
 */
export async function createLedgerTables(dataSource: DataSource): Promise<void> {
  await dataSource.query(`
    CREATE TABLE ledger_entries (id uuid PRIMARY KEY, amount int NOT NULL);
    -- no unique key on purpose: a consumer applying an event twice would show as two rows
    CREATE TABLE ledger_applied (consumer text NOT NULL, event_id uuid NOT NULL, entry_id uuid NOT NULL,
                                 amount int NOT NULL, applied_at timestamptz NOT NULL DEFAULT clock_timestamp());
  `);
}

export class EntryRecorded extends DomainEvent<{ amount: number }> {
  static readonly type = 'EntryRecorded';
  readonly type = EntryRecorded.type;
  readonly aggregateType = 'LedgerEntry';
}

export class RecordEntry extends Command<string> {
  constructor(
    readonly amount: number,
    /** Fails after the row and the event were written, inside the transaction. */
    readonly failAfterWriting = false,
  ) {
    super();
  }
}

@CommandHandler(RecordEntry)
export class RecordEntryHandler implements ICommandHandler<RecordEntry, string> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute(command: RecordEntry): Promise<string> {
    return this.unitOfWork.run(async (tx) => {
      const id = randomUUID();
      await tx.manager.query('INSERT INTO ledger_entries (id, amount) VALUES ($1, $2)', [id, command.amount]);
      tx.record(new EntryRecorded(id, { amount: command.amount }));
      if (command.failAfterWriting) throw new Error('the ledger refused the entry');
      return id;
    });
  }
}

async function recordApplication(consumer: string, event: PublishedEvent, manager: EntityManager) {
  const { amount } = event.payload as { amount: number };
  await manager.query(
    'INSERT INTO ledger_applied (consumer, event_id, entry_id, amount) VALUES ($1, $2, $3, $4)',
    [consumer, event.id, event.aggregateId, amount],
  );
}

/** Projects every entry; counts how often it was called, applied or not. */
@Injectable()
export class LedgerProjection implements EventConsumer {
  readonly name = 'ledger-projection';
  readonly handles = [EntryRecorded.type];
  readonly calls: string[] = [];

  async handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    this.calls.push(event.id);
    await recordApplication(this.name, event, manager);
  }

  async reset(manager: EntityManager): Promise<void> {
    await manager.query('DELETE FROM ledger_applied WHERE consumer = $1', [this.name]);
  }
}

/**
 * Fails the first two attempts of entries of 7, then succeeds; always fails entries of 13.
 * Amounts choose the behaviour so that tests can mix well-behaved and failing events.
 */
@Injectable()
export class TroubledConsumer implements EventConsumer {
  readonly name = 'troubled-consumer';
  readonly handles = [EntryRecorded.type];
  readonly attempts = new Map<string, number>();

  async handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    const attempt = (this.attempts.get(event.id) ?? 0) + 1;
    this.attempts.set(event.id, attempt);
    const { amount } = event.payload as { amount: number };
    // the effect is written first, so a failure proves the rollback too
    await recordApplication(this.name, event, manager);
    if (amount === 13) throw new Error(`entry ${event.aggregateId} can never be applied`);
    if (amount === 7 && attempt <= 2) throw new Error(`attempt ${attempt} of a flaky entry failed`);
  }
}

export async function appliedCount(dataSource: DataSource, consumer: string): Promise<number> {
  const [row] = await dataSource.query('SELECT count(*)::int AS n FROM ledger_applied WHERE consumer = $1', [
    consumer,
  ]);
  return row.n;
}
