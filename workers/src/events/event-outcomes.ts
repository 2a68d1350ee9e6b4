import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
import { markEventFailed, markEventsProcessed } from '@offers/api/infrastructure/events/outbox-store';
import type { DataSource, EntityManager } from 'typeorm';

interface Mark {
  eventId: string;
  settle(error?: Error): void;
}

/** Marks the events processed in the transaction of `manager` (with the effect of their last consumer). */
export async function markProcessed(manager: EntityManager, events: PublishedEvent[]): Promise<void> {
  await markEventsProcessed(
    manager,
    events.map((event) => event.id),
  );
}

/**
 * Writes back to the outbox what became of each event. An event some consumer handles is marked
 * processed with the effect of its last consumer (EventDispatcher); one that no consumer handles is
 * marked here, in batches (one UPDATE for every mark that arrived while the previous one ran). An
 * event's job finishes only once its mark is committed: a process killed at any moment leaves
 * either a marked event or a job BullMQ hands out again (its consumers then skip it through their
 * inbox, and it is marked).
 */
@Injectable()
export class EventOutcomes {
  private pending: Mark[] = [];
  private flushing = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Resolves once the event is marked processed in the outbox; rejects if the mark failed. */
  processed(eventId: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ eventId, settle: (error) => (error ? reject(error) : resolve()) });
      if (!this.flushing) void this.flush();
    });
  }

  async failed(eventId: string, error: string): Promise<void> {
    await markEventFailed(this.dataSource, eventId, error.slice(0, 2000));
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    // Marks of events applied in the same turn of the event loop join one statement.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      const marks = this.pending;
      this.pending = [];
      try {
        await markEventsProcessed(
          this.dataSource.manager,
          marks.map((mark) => mark.eventId),
        );
        for (const mark of marks) mark.settle();
      } catch (error) {
        for (const mark of marks) mark.settle(error as Error);
      }
    }
    this.flushing = false;
  }
}
