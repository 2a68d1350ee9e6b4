import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { PublishedEvent } from '../../../api/src/events/domain-event.js';
import { Metrics } from '../../../api/src/metrics/metrics.js';
import { EVENT_CONSUMERS, type EventConsumer } from './event-consumer.js';

interface Delivery {
  event: PublishedEvent;
  settle(error?: unknown): void;
}

/** Hands events to every consumer registered for their type, each at most once in effect. */
@Injectable()
export class EventDispatcher {
  private waiting: Delivery[] = [];
  private flushScheduled = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(EVENT_CONSUMERS) readonly consumers: EventConsumer[],
    private readonly metrics: Metrics,
  ) {}

  /**
   * Applies the event to each interested consumer. Events dispatched in the same turn of the event
   * loop (the worker runs several jobs at once) are applied together, in one transaction per
   * consumer; that saves most of the round trips per event. A consumer that throws leaves no
   * trace of the lot, which is then applied event by event so that only the failing events fail.
   * On a retry, consumers that already applied an event skip it through their inbox record.
   */
  dispatch(event: PublishedEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ event, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const batch = this.waiting;
    this.waiting = [];
    try {
      await this.apply(batch.map((delivery) => delivery.event));
      for (const delivery of batch) delivery.settle();
      return;
    } catch (error) {
      if (batch.length === 1) return batch[0]!.settle(error);
    }
    await Promise.all(
      batch.map(({ event, settle }) =>
        this.apply([event]).then(
          () => settle(),
          (error: unknown) => settle(error ?? new Error('event consumer failed')),
        ),
      ),
    );
  }

  private async apply(events: PublishedEvent[]): Promise<void> {
    for (const consumer of this.consumers) {
      const handled = events.filter((event) => consumer.handles.includes(event.type));
      if (handled.length === 0) continue;
      let applied: PublishedEvent[];
      try {
        applied = await this.dataSource.transaction((manager) => applyOnce(consumer, handled, manager));
      } catch (error) {
        this.metrics.consumerFailures.inc({ consumer: consumer.name });
        throw error;
      }
      // Committed: the effect is visible from now on.
      const now = Date.now();
      for (const event of applied) {
        this.metrics.eventLag.observe(
          { consumer: consumer.name },
          (now - Date.parse(event.occurredAt)) / 1000,
        );
      }
      this.metrics.eventsApplied.inc({ consumer: consumer.name }, applied.length);
    }
  }
}

/**
 * Records the events in the consumer's inbox and applies those it had not recorded yet, in order.
 * Returns the events it applied.
 */
export async function applyOnce(
  consumer: EventConsumer,
  events: PublishedEvent[],
  manager: EntityManager,
): Promise<PublishedEvent[]> {
  const inserted: Array<{ event_id: string }> = await manager.query(
    `INSERT INTO inbox (consumer, event_id) SELECT $1, unnest($2::uuid[])
     ON CONFLICT DO NOTHING RETURNING event_id`,
    [consumer.name, events.map((event) => event.id)],
  );
  const fresh = new Set(inserted.map((row) => row.event_id));
  const applied: PublishedEvent[] = [];
  for (const event of events) {
    // delete: the same event twice in one lot is applied once
    if (!fresh.delete(event.id)) continue;
    await consumer.handle(event, manager);
    applied.push(event);
  }
  return applied;
}
