import { randomUUID } from 'node:crypto';

/**
 * Something that happened to an aggregate. Handlers record events on the transaction that makes the
 * change ({@link UnitOfWork}); they reach consumers only after that transaction commits.
 */
export abstract class DomainEvent<P extends object = Record<string, unknown>> {
  readonly id: string = randomUUID();
  readonly occurredAt: Date = new Date();
  abstract readonly type: string;
  abstract readonly aggregateType: string;

  constructor(
    readonly aggregateId: string,
    readonly payload: P,
  ) {}
}

/** An event as it travels from the outbox to the consumers (the BullMQ job data). */
export interface PublishedEvent<P = Record<string, unknown>> {
  id: string;
  position: string;
  type: string;
  aggregateType: string;
  aggregateId: string;
  payload: P;
  occurredAt: string;
}
