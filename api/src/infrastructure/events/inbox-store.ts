/**
 * Each consumer's inbox: the events it applied, so a redelivered event is applied once. Written in
 * the consumer's transaction, with its effect.
 */
import type { EntityManager } from 'typeorm';
import { preparedStatement, runPrepared } from '../database/prepared-statements.js';

/** Prepared: it runs once per lot and consumer. */
const RECORD_IN_INBOX = preparedStatement(
  'inbox-record',
  `INSERT INTO inbox (consumer, event_id) SELECT $1, unnest($2::uuid[])
   ON CONFLICT DO NOTHING RETURNING event_id`,
);

/** Records the events in the consumer's inbox; answers the ids it had not recorded before. */
export async function recordInInbox(
  manager: EntityManager,
  consumer: string,
  eventIds: readonly string[],
): Promise<Set<string>> {
  const inserted = await runPrepared<{ event_id: string }>(manager, RECORD_IN_INBOX, [consumer, eventIds]);
  return new Set(inserted.map((row) => row.event_id));
}

/** Empties the consumer's inbox, so a rebuild applies every event again. */
export async function forgetInbox(manager: Pick<EntityManager, 'query'>, consumer: string): Promise<void> {
  await manager.query('DELETE FROM inbox WHERE consumer = $1', [consumer]);
}

/**
 * Forgets what consumers applied more than `keepDays` ago, in batches; answers how many rows went.
 * Only events marked processed (every consumer applied them) go: the relay offers again only
 * unprocessed events, so none of these can arrive again and find its inbox row missing. The
 * outbox stays whole as the event log, and a rebuild empties its consumer's inbox anyway.
 */
export async function purgeHandledInbox(
  writer: Pick<EntityManager, 'query'>,
  keepDays: number,
  batch = 10_000,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const [, count] = await writer.query(
      `DELETE FROM inbox i USING (
         SELECT i.consumer, i.event_id FROM inbox i
         JOIN outbox o ON o.id = i.event_id AND o.processed_at IS NOT NULL
         WHERE i.handled_at < now() - make_interval(days => $1)
         LIMIT $2) old
       WHERE i.consumer = old.consumer AND i.event_id = old.event_id`,
      [keepDays, batch],
    );
    removed += count ?? 0;
    if ((count ?? 0) < batch) return removed;
  }
}
