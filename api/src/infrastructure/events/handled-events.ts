import type { EntityManager } from 'typeorm';

/**
 * Events a seed enters in the log as already handled: back-dated history that must count in a
 * rebuild of the read models, yet must not reach the consumers now (no mail about it goes out).
 */

/** Whether the event of this id is in the log. */
export async function eventLogged(reader: Pick<EntityManager, 'query'>, eventId: string): Promise<boolean> {
  const [{ present }] = await reader.query('SELECT EXISTS (SELECT 1 FROM outbox WHERE id = $1) AS present', [
    eventId,
  ]);
  return present;
}

/**
 * Marks the logged events published and processed, and handled by `consumer` (which the caller
 * applies itself in the same transaction), so the relay never sends them.
 */
export async function markEventsHandled(
  manager: EntityManager,
  consumer: string,
  eventIds: string[],
): Promise<void> {
  await manager.query(
    'UPDATE outbox SET published_at = now(), processed_at = now() WHERE id = ANY($1::uuid[])',
    [eventIds],
  );
  await manager.query('INSERT INTO inbox (consumer, event_id) SELECT $1, unnest($2::uuid[])', [
    consumer,
    eventIds,
  ]);
}
