import { forgetInbox } from '@offers/api/infrastructure/events/inbox-store';
import { eventsOfTypesAfter } from '@offers/api/infrastructure/events/queries/outbox';
import type { DataSource } from 'typeorm';
import type { EventConsumer } from './event-consumer.js';
import { applyOnce } from './event-dispatcher.js';

const PAGE_SIZE = 1000;

/**
 * Empties a read model and replays the event log into it, in one transaction: readers see the old
 * model until the new one is complete, and live deliveries to this consumer wait on its inbox
 * lock, then find the events already applied.
 */
export async function rebuildProjection(dataSource: DataSource, consumer: EventConsumer): Promise<number> {
  if (!consumer.reset) throw new Error(`${consumer.name} keeps no read model to rebuild`);
  return dataSource.transaction(async (manager) => {
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`projection:${consumer.name}`]);
    await consumer.reset!(manager);
    await forgetInbox(manager, consumer.name);
    let applied = 0;
    let after = '0';
    for (;;) {
      const page = await eventsOfTypesAfter(manager, consumer.handles, after, PAGE_SIZE);
      applied += (await applyOnce(consumer, page, manager)).length;
      if (page.length < PAGE_SIZE) return applied;
      after = page[page.length - 1]!.position;
    }
  });
}
