import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PublishedEvent } from '../../../api/src/events/domain-event.js';
import { EVENT_CONSUMERS, type EventConsumer } from './event-consumer.js';

/** Hands an event to every consumer registered for its type, each at most once in effect. */
@Injectable()
export class EventDispatcher {
  private readonly consumersByType = new Map<string, EventConsumer[]>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(EVENT_CONSUMERS) readonly consumers: EventConsumer[],
  ) {
    for (const consumer of consumers) {
      for (const type of consumer.handles) {
        this.consumersByType.set(type, [...(this.consumersByType.get(type) ?? []), consumer]);
      }
    }
  }

  /**
   * Applies the event to each interested consumer in its own transaction. A consumer that throws
   * leaves no trace and fails the whole delivery; on retry, consumers that already applied it
   * are skipped by their inbox record.
   */
  async dispatch(event: PublishedEvent): Promise<void> {
    for (const consumer of this.consumersByType.get(event.type) ?? []) {
      await this.dataSource.transaction((manager) => applyOnce(consumer, event, manager));
    }
  }
}

/** Records the event in the consumer's inbox and applies it, or does nothing if it was recorded. */
export async function applyOnce(
  consumer: EventConsumer,
  event: PublishedEvent,
  manager: EntityManager,
): Promise<boolean> {
  const inserted: unknown[] = await manager.query(
    'INSERT INTO inbox (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id',
    [consumer.name, event.id],
  );
  if (inserted.length === 0) return false;
  await consumer.handle(event, manager);
  return true;
}
