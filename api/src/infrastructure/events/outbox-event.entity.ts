import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A committed domain event. Written in the same transaction as the change it describes, moved to
 * the queue by the relay, and kept afterwards: the table is the event log that read models are
 * rebuilt from.
 */
@Entity('outbox')
export class OutboxEvent {
  @PrimaryColumn('uuid')
  id: string;

  /** Commit-independent insertion order; the replay order of the log. */
  @Column({ type: 'bigint', insert: false, update: false })
  position: string;

  @Column('text')
  type: string;

  @Column('text', { name: 'aggregate_type' })
  aggregateType: string;

  @Column('text', { name: 'aggregate_id' })
  aggregateId: string;

  @Column('jsonb')
  payload: Record<string, unknown>;

  @Column('timestamptz', { name: 'occurred_at' })
  occurredAt: Date;

  @Column('timestamptz', { name: 'published_at', nullable: true })
  publishedAt: Date | null;

  /** Set once every consumer of the event has applied it. */
  @Column('timestamptz', { name: 'processed_at', nullable: true })
  processedAt: Date | null;

  /** Set when a consumer gave up after its last attempt; the job stays visible as failed. */
  @Column('timestamptz', { name: 'failed_at', nullable: true })
  failedAt: Date | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError: string | null;
}

/** Which consumer has applied which event: the record that makes redelivery harmless. */
@Entity('inbox')
export class InboxEntry {
  @PrimaryColumn('text')
  consumer: string;

  @PrimaryColumn('uuid', { name: 'event_id' })
  eventId: string;

  @Column('timestamptz', { name: 'handled_at' })
  handledAt: Date;
}
