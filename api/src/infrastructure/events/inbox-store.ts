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
