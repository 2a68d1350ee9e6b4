import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { preparedStatement, runPrepared } from '../database/prepared-statements.js';
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

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    // Committed: the relay can see the events from now on.
    return runInTransaction(this.dataSource, work, () => this.signal.committed());
  }
}

/**
 * A command's work and the events it records in one transaction on `dataSource`; `committed` is
 * called after a commit that wrote events. What UnitOfWork runs, and what a seed runs outside Nest
 * (without a signal: the relay finds its events at its next poll).
 */
export async function runInTransaction<T>(
  dataSource: DataSource,
  work: (tx: Transaction) => Promise<T>,
  committed?: () => void,
): Promise<T> {
  const events: DomainEvent<object>[] = [];
  const result = await dataSource.transaction(async (manager) => {
    const answer = await work({ manager, record: (...recorded) => events.push(...recorded) });
    if (events.length > 0) await appendToOutbox(manager, events);
    return answer;
  });
  if (events.length > 0) committed?.();
  return result;
}

/**
 * One row per event, from one array per column: six parameters however many events (a sweep
 * records a thousand), where a VALUES list of six per event made PostgreSQL parse and bind
 * thousands of them; prepared, as every command that records an event runs it. The order of
 * `events` is the order of their positions.
 */
const APPEND_TO_OUTBOX = preparedStatement(
  'outbox-append',
  `INSERT INTO outbox (id, type, aggregate_type, aggregate_id, payload, occurred_at)
  SELECT id, type, aggregate_type, aggregate_id, payload, occurred_at
  FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::timestamptz[])
       WITH ORDINALITY AS event (id, type, aggregate_type, aggregate_id, payload, occurred_at, n)
  ORDER BY n`,
);

export async function appendToOutbox(manager: EntityManager, events: DomainEvent<object>[]): Promise<void> {
  await runPrepared(manager, APPEND_TO_OUTBOX, [
    events.map((event) => event.id),
    events.map((event) => event.type),
    events.map((event) => event.aggregateType),
    events.map((event) => event.aggregateId),
    events.map((event) => JSON.stringify(event.payload)),
    events.map((event) => event.occurredAt),
  ]);
}
