import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
import { recordInInbox } from '@offers/api/infrastructure/events/inbox-store';
import { Metrics } from '@offers/api/infrastructure/metrics/metrics';
import type { DataSource, EntityManager } from 'typeorm';
import { EVENT_CONSUMERS, type EventConsumer } from './event-consumer.js';
import { EventOutcomes, markProcessed } from './event-outcomes.js';

interface Delivery {
  event: PublishedEvent;
  settle(error?: unknown): void;
}

/**
 * Lots applied at once. Events that arrive while they run wait and go together in the next lot:
 * under load each commit carries many events (fewer round trips and WAL flushes per event),
 * while a lone event still goes at once.
 */
const PARALLEL_LOTS = 2;

/** Hands events to every consumer registered for their type, each at most once in effect. */
@Injectable()
export class EventDispatcher {
  private waiting: Delivery[] = [];
  private lotsRunning = 0;
  private flushScheduled = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(EVENT_CONSUMERS) readonly consumers: EventConsumer[],
    private readonly metrics: Metrics,
    private readonly outcomes: EventOutcomes,
  ) {}

  /**
   * Applies the event to each interested consumer. Events dispatched together (the worker runs
   * several jobs at once) are applied as one lot, in one transaction per consumer; that saves most
   * of the round trips per event. A consumer that throws leaves no trace of the lot, which is then
   * applied event by event so that only the failing events fail. On a retry, consumers that already
   * applied an event skip it through their inbox record.
   */
  dispatch(event: PublishedEvent): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ event, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      this.scheduleFlush();
    });
  }

  /** Starts a lot on the next turn of the event loop, so that events dispatched in this one join it. */
  private scheduleFlush(): void {
    if (this.flushScheduled || this.lotsRunning >= PARALLEL_LOTS || this.waiting.length === 0) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.lotsRunning >= PARALLEL_LOTS || this.waiting.length === 0) return;
    const lot = this.waiting;
    this.waiting = [];
    this.lotsRunning += 1;
    try {
      await this.applyLot(lot);
    } finally {
      this.lotsRunning -= 1;
      this.scheduleFlush();
    }
  }

  private async applyLot(lot: Delivery[]): Promise<void> {
    try {
      await this.apply(lot.map((delivery) => delivery.event));
      for (const delivery of lot) delivery.settle();
      return;
    } catch (error) {
      if (lot.length === 1) return lot[0]!.settle(error);
    }
    await Promise.all(
      lot.map(({ event, settle }) =>
        this.apply([event]).then(
          () => settle(),
          (error: unknown) => settle(error ?? new Error('event consumer failed')),
        ),
      ),
    );
  }

  /**
   * Applies the lot consumer by consumer, one transaction each. The last of them also marks the
   * lot processed in the outbox: the mark commits with the last effect (one commit fewer per lot),
   * and an event is marked exactly when every consumer's effect of it is committed.
   */
  private async apply(events: PublishedEvent[]): Promise<void> {
    const interested = this.consumers
      .map((consumer) => ({
        consumer,
        handled: events.filter((event) => consumer.handles.includes(event.type)),
      }))
      .filter(({ handled }) => handled.length > 0);
    if (interested.length === 0) {
      await Promise.all(events.map((event) => this.outcomes.processed(event.id)));
      return;
    }
    for (const [index, { consumer, handled }] of interested.entries()) {
      const last = index === interested.length - 1;
      let applied: PublishedEvent[];
      try {
        applied = await this.dataSource.transaction(async (manager) => {
          const appliedNow = await applyOnce(consumer, handled, manager);
          if (last) await markProcessed(manager, events);
          return appliedNow;
        });
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
  const fresh = await recordInInbox(
    manager,
    consumer.name,
    events.map((event) => event.id),
  );
  // delete: the same event twice in one lot is applied once
  const applied = events.filter((event) => fresh.delete(event.id));
  if (applied.length === 0) return applied;
  if (consumer.handleLot) await consumer.handleLot(applied, manager);
  else for (const event of applied) await consumer.handle(event, manager);
  return applied;
}
