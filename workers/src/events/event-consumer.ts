import type { PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
import type { EntityManager } from 'typeorm';

/**
 * Something that reacts to domain events: a projection keeping a read model, a mailer, ...
 * `handle` runs inside the transaction that also records the event as handled by this consumer,
 * so its database effect happens once however often the event is delivered.
 */
export interface EventConsumer {
  /** Stable: it keys the inbox, so a renamed consumer would apply every event again. */
  readonly name: string;
  readonly handles: readonly string[];
  handle(event: PublishedEvent, manager: EntityManager): Promise<void>;
  /**
   * When present, takes the place of `handle`: the lot's new events at once, in delivery order.
   * For consumers whose rows several events share, which can then take each row once and in one
   * order (lots applied in parallel would otherwise lock shared rows in opposite orders).
   */
  handleLot?(events: PublishedEvent[], manager: EntityManager): Promise<void>;
  /** Read models only: empties the model so `projections:rebuild` can replay the log into it. */
  reset?(manager: EntityManager): Promise<void>;
}

export const EVENT_CONSUMERS = Symbol('EVENT_CONSUMERS');
