import type { DataSource, EntityManager } from 'typeorm';
import type { ListRequest } from '../../infrastructure/http/react-admin.js';
import type { FeedRunStatus, FeedRunTrigger } from '../../rules/feeds.js';
import type { FeedRejectionAnswer, FeedRunAnswer, FeedRunSummary } from './answers.js';

/**
 * SQL of `feed_runs`, `feed_run_rejections` and `feed_uploads` (see migration
 * FeedSources1764900000000): the feed feature's store of runs, used by its commands and by the
 * import.
 */

type Reader = Pick<DataSource | EntityManager, 'query'>;

export const FEED_RUN_SORTS = ['id', 'requestedAt', 'status', 'finishedAt'] as const;
const SORT_COLUMNS: Record<(typeof FEED_RUN_SORTS)[number], string> = {
  id: 'r.id',
  requestedAt: 'r.requested_at',
  status: 'r.status',
  finishedAt: 'r.finished_at',
};

/** Rejected rows a run's record shows; its CSV has them all. */
export const REJECTIONS_SHOWN = 100;

const SUMMARY_COLUMNS = `
  r.id, r.source_id AS "sourceId", s.name AS "sourceName", r.status, r.trigger,
  r.requested_at AS "requestedAt", r.started_at AS "startedAt", r.finished_at AS "finishedAt",
  r.accepted_at AS "acceptedAt", r.rows_read AS "rowsRead", r.added, r.updated, r.unchanged, r.ended,
  r.duplicates, r.rejected, r.waiting, r.error`;

/** One page of runs, newest first by default; filters: `sourceId`, `status`. */
export async function feedRunPage(
  reader: Reader,
  page: ListRequest<(typeof FEED_RUN_SORTS)[number]>,
  filter: { sourceId?: number; status?: string },
): Promise<{ rows: FeedRunSummary[]; total: number }> {
  const where = '($1::int IS NULL OR r.source_id = $1) AND ($2::text IS NULL OR r.status = $2)';
  const parameters = [filter.sourceId ?? null, filter.status ?? null];
  const [{ total }] = await reader.query(
    `SELECT count(*)::int AS total FROM feed_runs r WHERE ${where}`,
    parameters,
  );
  const rows = await reader.query(
    `SELECT ${SUMMARY_COLUMNS} FROM feed_runs r JOIN feed_sources s ON s.id = r.source_id WHERE ${where}
     ORDER BY ${SORT_COLUMNS[page.sortField]} ${page.order} NULLS LAST, r.id ${page.order}
     OFFSET $3 LIMIT $4`,
    [...parameters, page.offset, page.limit],
  );
  return { rows, total };
}

export async function feedRun(reader: Reader, id: number): Promise<FeedRunAnswer | undefined> {
  const [run] = await reader.query(
    `SELECT ${SUMMARY_COLUMNS}, u.size AS "uploadBytes"
     FROM feed_runs r JOIN feed_sources s ON s.id = r.source_id LEFT JOIN feed_uploads u ON u.run_id = r.id
     WHERE r.id = $1`,
    [id],
  );
  if (!run) return undefined;
  const rejections = await reader.query(
    `SELECT line, row_id AS "rowId", reason, message FROM feed_run_rejections
     WHERE run_id = $1 ORDER BY line, id LIMIT $2`,
    [id, REJECTIONS_SHOWN],
  );
  return { ...run, rejections };
}

/** Every rejected row of a run, in feed order. */
export function feedRunRejections(reader: Reader, runId: number): Promise<FeedRejectionAnswer[]> {
  return reader.query(
    `SELECT line, row_id AS "rowId", reason, message FROM feed_run_rejections
     WHERE run_id = $1 ORDER BY line, id`,
    [runId],
  );
}

/**
 * Records a queued run of the source. A source has at most one open run (queued, running or
 * waiting for an admin): a second one violates `feed_runs_one_open` (23505).
 */
export async function insertFeedRun(
  manager: EntityManager,
  sourceId: number,
  trigger: FeedRunTrigger,
): Promise<number> {
  const [{ id }] = await manager.query(
    'INSERT INTO feed_runs (source_id, trigger) VALUES ($1, $2) RETURNING id',
    [sourceId, trigger],
  );
  return id;
}

/** Keeps an uploaded feed's bytes (gzip or not, as sent) for its run, until the run ends. */
export async function storeFeedUpload(manager: EntityManager, runId: number, bytes: Buffer): Promise<void> {
  await manager.query('INSERT INTO feed_uploads (run_id, bytes, size) VALUES ($1, $2, $3)', [
    runId,
    bytes,
    bytes.length,
  ]);
}

/** The bytes uploaded for a run, or undefined (a fetched feed, or a run that ended). */
export async function feedUpload(reader: Reader, runId: number): Promise<Buffer | undefined> {
  const [row] = await reader.query('SELECT bytes FROM feed_uploads WHERE run_id = $1', [runId]);
  return row?.bytes;
}

/** Drops a run's uploaded file: once the run has ended, nothing reads it again. */
export async function dropFeedUpload(manager: EntityManager, runId: number): Promise<void> {
  await manager.query('DELETE FROM feed_uploads WHERE run_id = $1', [runId]);
}

/** The counts a run reports. */
export interface FeedRunCounts {
  rowsRead: number;
  added: number;
  updated: number;
  unchanged: number;
  ended: number;
  duplicates: number;
  rejected: number;
  /** Rows of advertisers not mapped to a store yet. */
  waiting: number;
}

export interface FeedRunChange {
  status: FeedRunStatus;
  counts?: Partial<FeedRunCounts>;
  error?: string | null;
  /** Sets `started_at` (a run taken up). */
  started?: boolean;
  /** Sets `finished_at` (a run over: succeeded, failed, discarded). */
  finished?: boolean;
  /** Sets `accepted_at` (an admin let a waiting run go on). */
  accepted?: boolean;
}

/**
 * Moves a run from one of `from` to a new status, locked: answers the run's source id, or
 * undefined when the run does not exist or is in another status (the caller's 404 or 409).
 */
export async function moveFeedRun(
  manager: EntityManager,
  runId: number,
  from: readonly FeedRunStatus[],
  change: FeedRunChange,
): Promise<{ sourceId: number } | undefined> {
  const counts = change.counts ?? {};
  const rows = await manager.query(
    `WITH moved AS (
       UPDATE feed_runs SET status = $3,
         started_at = CASE WHEN $4 THEN now() ELSE started_at END,
         finished_at = CASE WHEN $5 THEN now() ELSE finished_at END,
         accepted_at = CASE WHEN $6 THEN now() ELSE accepted_at END,
         error = CASE WHEN $7 THEN $8 ELSE error END,
         rows_read = coalesce($9, rows_read), added = coalesce($10, added), updated = coalesce($11, updated),
         unchanged = coalesce($12, unchanged), ended = coalesce($13, ended),
         duplicates = coalesce($14, duplicates), rejected = coalesce($15, rejected),
         waiting = coalesce($16, waiting)
       WHERE id = $1 AND status = ANY($2::text[])
       RETURNING source_id AS "sourceId")
     SELECT * FROM moved`,
    [
      runId,
      from,
      change.status,
      change.started ?? false,
      change.finished ?? false,
      change.accepted ?? false,
      change.error !== undefined,
      change.error ?? null,
      counts.rowsRead ?? null,
      counts.added ?? null,
      counts.updated ?? null,
      counts.unchanged ?? null,
      counts.ended ?? null,
      counts.duplicates ?? null,
      counts.rejected ?? null,
      counts.waiting ?? null,
    ],
  );
  return rows[0];
}

/** The status of a run, or undefined when there is no such run. */
export async function feedRunStatus(reader: Reader, runId: number): Promise<FeedRunStatus | undefined> {
  const [row] = await reader.query('SELECT status FROM feed_runs WHERE id = $1', [runId]);
  return row?.status;
}

/** Records rejected rows of a run (one statement for the lot). */
export async function recordFeedRejections(
  manager: EntityManager,
  runId: number,
  rejections: readonly FeedRejectionAnswer[],
): Promise<void> {
  if (rejections.length === 0) return;
  await manager.query(
    `INSERT INTO feed_run_rejections (run_id, line, row_id, reason, message)
     SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[])`,
    [
      runId,
      rejections.map((r) => r.line),
      rejections.map((r) => r.rowId),
      rejections.map((r) => r.reason),
      rejections.map((r) => r.message),
    ],
  );
}

/**
 * Sources whose schedule makes a run due: enabled, fetched from an address, no run open, and none
 * requested within their interval. Locked (skipping sources another sweep holds).
 */
export async function lockSourcesDue(manager: EntityManager): Promise<number[]> {
  const rows: Array<{ id: number }> = await manager.query(
    `SELECT s.id FROM feed_sources s
     WHERE s.enabled AND s.url IS NOT NULL AND s.schedule_minutes IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM feed_runs r WHERE r.source_id = s.id
                       AND (r.status IN ('queued', 'running', 'waiting-for-admin')
                            OR r.requested_at > now() - make_interval(mins => s.schedule_minutes)))
     ORDER BY s.id FOR UPDATE SKIP LOCKED`,
  );
  return rows.map((row) => row.id);
}

/** Queued runs requested over `olderThanMs` ago, with whether an admin accepted them. */
export function staleQueuedRuns(
  reader: Reader,
  olderThanMs: number,
): Promise<Array<{ id: number; accepted: boolean }>> {
  return reader.query(
    `SELECT id, accepted_at IS NOT NULL AS accepted FROM feed_runs
     WHERE status = 'queued' AND coalesce(accepted_at, requested_at) < now() - make_interval(secs => $1::float / 1000)
     ORDER BY id`,
    [olderThanMs],
  );
}

/** Each source's latest succeeded run and schedule: readiness reports sources long without one. */
export function feedSourceFreshness(
  reader: Reader,
): Promise<
  Array<{ id: number; name: string; scheduleMinutes: number; lastSuccessAt: Date | null; createdAt: Date }>
> {
  return reader.query(
    `SELECT s.id, s.name, s.schedule_minutes AS "scheduleMinutes", s.created_at AS "createdAt",
            (SELECT max(r.finished_at) FROM feed_runs r WHERE r.source_id = s.id AND r.status = 'succeeded')
              AS "lastSuccessAt"
     FROM feed_sources s
     WHERE s.enabled AND s.url IS NOT NULL AND s.schedule_minutes IS NOT NULL ORDER BY s.id`,
  );
}

/**
 * A run's progress as the benchmark follows it: its status and counts, its seconds from start to
 * end, and the rows written to `feed_run_rows` so far (from the statistics collector).
 */
export async function feedRunProgress(
  reader: Reader,
  runId: number,
): Promise<Record<string, unknown> | undefined> {
  const [row] = await reader.query(
    `SELECT status, rows_read, extract(epoch FROM finished_at - started_at)::float8 AS seconds,
            added, updated, unchanged, ended, duplicates, rejected, waiting,
            (SELECT n_tup_ins + n_tup_upd FROM pg_stat_user_tables WHERE relname = 'feed_run_rows') AS applied
     FROM feed_runs WHERE id = $1`,
    [runId],
  );
  return row;
}
