import type { PublishedEvent } from '@offers/api/events/domain-event';
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
    await manager.query('DELETE FROM inbox WHERE consumer = $1', [consumer.name]);
    let applied = 0;
    let after = '0';
    for (;;) {
      const page: PublishedEvent[] = await manager.query(
        `SELECT id, position::text AS position, type, aggregate_type AS "aggregateType",
                aggregate_id AS "aggregateId", payload, occurred_at AS "occurredAt"
         FROM outbox WHERE type = ANY($1) AND position > $2 ORDER BY position LIMIT $3`,
        [consumer.handles, after, PAGE_SIZE],
      );
      for (const event of page) event.occurredAt = new Date(event.occurredAt).toISOString();
      applied += (await applyOnce(consumer, page, manager)).length;
      if (page.length < PAGE_SIZE) return applied;
      after = page[page.length - 1]!.position;
    }
  });
}
