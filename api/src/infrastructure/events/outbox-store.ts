/**
 * Writes to the outbox after an event is recorded: the relay marks it published, the dispatcher
 * marks it processed or failed. Recording an event is the UnitOfWork's.
 */
import type { EntityManager } from 'typeorm';
import { preparedStatement, runPrepared } from '../database/prepared-statements.js';

type Writer = Pick<EntityManager, 'query'>;

// Prepared: the relay marks on every pass, the dispatcher once per lot.
const MARK_PUBLISHED = preparedStatement(
  'outbox-mark-published',
  'UPDATE outbox SET published_at = now() WHERE id = ANY($1::uuid[])',
);
const PROCESSED_MARK = preparedStatement(
  'outbox-mark-processed',
  'UPDATE outbox SET processed_at = now(), failed_at = NULL WHERE id = ANY($1::uuid[])',
);

/** The events' jobs were accepted by the queue, in the transaction that claimed their rows. */
export async function markEventsPublished(
  manager: EntityManager,
  eventIds: readonly string[],
): Promise<void> {
  await runPrepared(manager, MARK_PUBLISHED, [eventIds]);
}

/** The events were applied by every consumer (in the transaction of `manager`). */
export async function markEventsProcessed(
  manager: EntityManager,
  eventIds: readonly string[],
): Promise<void> {
  await runPrepared(manager, PROCESSED_MARK, [eventIds]);
}

/** The event's job failed for good; `at` is when, if the queue says. */
export async function markEventFailed(
  writer: Writer,
  eventId: string,
  error: string,
  at?: number,
): Promise<void> {
  if (at === undefined) {
    await writer.query('UPDATE outbox SET failed_at = now(), last_error = $2 WHERE id = $1', [
      eventId,
      error,
    ]);
    return;
  }
  await writer.query(
    'UPDATE outbox SET failed_at = to_timestamp($2::double precision / 1000), last_error = $3 WHERE id = $1',
    [eventId, at, error],
  );
}

/**
 * Empties the log, for a benchmark that repeats the same work from an empty log (never in the
 * product: the log is what a projection rebuilds from). `restartIds` restarts its positions.
 */
export async function emptyOutbox(manager: Writer, { restartIds = false } = {}): Promise<void> {
  await manager.query(restartIds ? 'TRUNCATE outbox RESTART IDENTITY' : 'TRUNCATE outbox');
}
