import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { DomainEvent } from './domain-event.js';
import { OutboxSignal } from './outbox-signal.js';

export interface Transaction {
  readonly manager: EntityManager;
  /** Queues events to be written to the outbox with this transaction's changes. */
  record(...events: DomainEvent<object>[]): void;
}

/**
 * Runs a command's changes and the events it records in one database transaction, so an event
 * exists exactly when its change does.
 */
@Injectable()
export class UnitOfWork {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly signal: OutboxSignal,
  ) {}

  async run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const events: DomainEvent<object>[] = [];
    const result = await this.dataSource.transaction(async (manager) => {
      const answer = await work({ manager, record: (...recorded) => events.push(...recorded) });
      if (events.length > 0) await appendToOutbox(manager, events);
      return answer;
    });
    // Committed: the relay can see the events from now on.
    if (events.length > 0) this.signal.committed();
    return result;
  }
}

export async function appendToOutbox(manager: EntityManager, events: DomainEvent<object>[]): Promise<void> {
  const values: unknown[] = [];
  const rows = events.map((event, index) => {
    const at = index * 6;
    values.push(
      event.id,
      event.type,
      event.aggregateType,
      event.aggregateId,
      JSON.stringify(event.payload),
      event.occurredAt,
    );
    return `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6})`;
  });
  await manager.query(
    `INSERT INTO outbox (id, type, aggregate_type, aggregate_id, payload, occurred_at) VALUES ${rows.join(', ')}`,
    values,
  );
}
