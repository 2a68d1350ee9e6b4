/**
 * Reads of the outbox, the log of every event a command recorded: what the relay publishes, what
 * a projection's rebuild replays, and the backlog readiness reports.
 */
import type { EntityManager } from 'typeorm';
import { preparedStatement, runPrepared } from '../../database/prepared-statements.js';
import type { PublishedEvent } from '../domain-event.js';

/** An outbox row as the relay claims it, before it becomes a job. */
export interface OutboxRow {
  id: string;
  position: string;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  payload: Record<string, unknown>;
  occurred_at: Date;
}

const SELECTED_COLUMNS = 'id, position, type, aggregate_type, aggregate_id, payload, occurred_at';

// Prepared: a busy relay claims and marks on every pass; republishing claims by the same path.
const CLAIM_UNPUBLISHED = preparedStatement(
  'outbox-claim-unpublished',
  `SELECT ${SELECTED_COLUMNS} FROM outbox WHERE published_at IS NULL
   ORDER BY position LIMIT $1 FOR UPDATE SKIP LOCKED`,
);

const CLAIM_UNPROCESSED = preparedStatement(
  'outbox-claim-unprocessed',
  `SELECT ${SELECTED_COLUMNS} FROM outbox
   WHERE published_at IS NOT NULL AND processed_at IS NULL AND failed_at IS NULL
     AND published_at <= now() - make_interval(secs => $1::double precision / 1000)
   ORDER BY published_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
);

/** Events not yet published, oldest first, locked (others skip them) until the claiming transaction ends. */
export function claimUnpublishedEvents(manager: EntityManager, limit: number): Promise<OutboxRow[]> {
  return runPrepared<OutboxRow>(manager, CLAIM_UNPUBLISHED, [limit]);
}

/**
 * Events published at least `olderThanMs` ago that no consumer run has finished, locked (others
 * skip them) until the claiming transaction ends.
 */
export function claimUnprocessedEvents(
  manager: EntityManager,
  olderThanMs: number,
  limit: number,
): Promise<OutboxRow[]> {
  return runPrepared<OutboxRow>(manager, CLAIM_UNPROCESSED, [olderThanMs, limit]);
}

/** A page of the log's events of these types after `after` (a position), in order, as consumers get them. */
export async function eventsOfTypesAfter(
  reader: { query(sql: string, parameters?: unknown[]): Promise<PublishedEvent[]> },
  types: readonly string[],
  after: string,
  limit: number,
): Promise<PublishedEvent[]> {
  const page = await reader.query(
    `SELECT id, position::text AS position, type, aggregate_type AS "aggregateType",
            aggregate_id AS "aggregateId", payload, occurred_at AS "occurredAt"
     FROM outbox WHERE type = ANY($1) AND position > $2 ORDER BY position LIMIT $3`,
    [types, after, limit],
  );
  for (const event of page) event.occurredAt = new Date(event.occurredAt).toISOString();
  return page;
}

/** The event pipeline's backlog, as readiness reports it. */
export interface OutboxBacklog {
  unpublished: number;
  oldest_unpublished_seconds: number;
  unprocessed: number;
  oldest_unprocessed_seconds: number;
  failed: number;
}

/**
 * The event pipeline's backlog. Each part reads a partial index (unpublished, unprocessed,
 * failed), so the cost follows the backlog, not the log. The caller runs the statement (readiness
 * runs it on its own connection, with its own time limit).
 */
export async function outboxBacklog(run: (sql: string) => Promise<OutboxBacklog[]>): Promise<OutboxBacklog> {
  const [row] = await run(`
    SELECT u.unpublished, u.oldest_unpublished_seconds, p.unprocessed, p.oldest_unprocessed_seconds, f.failed
    FROM (SELECT count(*)::int AS unpublished,
                 coalesce(extract(epoch FROM now() - min(occurred_at)), 0)::float AS oldest_unpublished_seconds
          FROM outbox WHERE published_at IS NULL) u,
         (SELECT count(*)::int AS unprocessed,
                 coalesce(extract(epoch FROM now() - min(published_at)), 0)::float AS oldest_unprocessed_seconds
          FROM outbox WHERE published_at IS NOT NULL AND processed_at IS NULL AND failed_at IS NULL) p,
         (SELECT count(*)::int AS failed FROM outbox WHERE failed_at IS NOT NULL) f`);
  return row;
}

type Reader = Pick<EntityManager, 'query'>;

/** How many events of the type are in the log. */
export async function outboxEventCount(reader: Reader, type: string): Promise<number> {
  const [row] = await reader.query('SELECT count(*)::int AS n FROM outbox WHERE type = $1', [type]);
  return row.n;
}

/**
 * How many events recorded between `from` and `until` (the database's clock; both undefined: any
 * time) wait for their consumers, neither applied nor failed for good.
 */
export async function outboxWaiting(reader: Reader, from?: Date, until?: Date): Promise<number> {
  const [row] =
    from === undefined || until === undefined
      ? await reader.query(
          'SELECT count(*)::int AS n FROM outbox WHERE processed_at IS NULL AND failed_at IS NULL',
        )
      : await reader.query(
          `SELECT count(*)::int AS n FROM outbox
           WHERE occurred_at BETWEEN $1 AND $2 AND processed_at IS NULL AND failed_at IS NULL`,
          [from, until],
        );
  return row.n;
}

/** Lag percentiles in ms, from an event's occurredAt to the outbox's processed_at. */
export interface OutboxLag {
  events: number;
  p50: number;
  p95: number;
}

/**
 * The lag of the events recorded between `from` and `until` (the database's clock): per type (with
 * those still waiting and those failed), and over all of them (with the 99th percentile).
 */
export async function outboxLag(
  reader: Reader,
  from: Date,
  until: Date,
): Promise<{
  byType: Array<OutboxLag & { type: string; waiting: number; failed: number }>;
  all: OutboxLag & { p99: number };
}> {
  const byType = await reader.query(
    `SELECT type, count(*)::int AS events,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM processed_at - occurred_at) * 1000) AS p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM processed_at - occurred_at) * 1000) AS p95,
            count(*) FILTER (WHERE processed_at IS NULL AND failed_at IS NULL)::int AS waiting,
            count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed
     FROM outbox WHERE occurred_at BETWEEN $1 AND $2 GROUP BY type ORDER BY type`,
    [from, until],
  );
  const [all] = await reader.query(
    `SELECT count(*)::int AS events,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM processed_at - occurred_at) * 1000) AS p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM processed_at - occurred_at) * 1000) AS p95,
            percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM processed_at - occurred_at) * 1000) AS p99
     FROM outbox WHERE occurred_at BETWEEN $1 AND $2`,
    [from, until],
  );
  return { byType, all };
}
