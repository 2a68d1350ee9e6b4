import type { DataSource, EntityManager } from 'typeorm';
import {
  slotExists as couponSlotExists,
  largestFreeSlot,
  slotNames,
} from '../../coupons/queries/slot-names.js';
import type { ListRequest } from '../../infrastructure/http/react-admin.js';
import type { FeedCredential, FeedCsvMapping, FeedPostbackMapping } from '../../rules/feeds.js';
import type { FeedSourceSettings } from '../events/feed-events.js';
import type { FeedSourceAnswer, FeedSourceRecordAnswer } from './answers.js';

/**
 * SQL of `feed_sources` and `feed_source_credentials` (see migration FeedSources1764900000000).
 * No query of an answer reads `feed_source_credentials.credential`: only its kind.
 */

type Reader = Pick<DataSource | EntityManager, 'query'>;

export const FEED_SOURCE_SORTS = ['id', 'name', 'format', 'enabled', 'createdAt'] as const;
const SORT_COLUMNS: Record<(typeof FEED_SOURCE_SORTS)[number], string> = {
  id: 's.id',
  name: 'lower(s.name)',
  format: 's.format',
  enabled: 's.enabled',
  createdAt: 's.created_at',
};

const ANSWER_COLUMNS = `
  s.id, s.name, s.format, s.url,
  CASE WHEN c.source_id IS NULL THEN NULL
       ELSE jsonb_build_object('kind', c.credential->>'kind', 'set', true) END AS credential,
  s.schedule_minutes AS "scheduleMinutes", s.mode, s.slot_id AS "slotId",
  s.review_policy AS "reviewPolicy", s.mapping, s.sub_id_param AS "subIdParam",
  s.postback_mapping AS "postbackMapping", s.enabled, s.created_at AS "createdAt", s.updated_at AS "updatedAt",
  (SELECT jsonb_build_object('id', r.id, 'status', r.status, 'requestedAt', r.requested_at,
                             'finishedAt', r.finished_at)
   FROM feed_runs r WHERE r.source_id = s.id ORDER BY r.id DESC LIMIT 1) AS "lastRun"`;

const FROM = `
  feed_sources s
  LEFT JOIN feed_source_credentials c ON c.source_id = s.id`;

/** The sources with their slots' names, asked of the coupons feature in one statement. */
async function withSlotNames<Row extends { slotId: number }>(
  reader: Reader,
  rows: Row[],
): Promise<Array<Row & { slotName: string }>> {
  const names = await slotNames(reader, [...new Set(rows.map((row) => row.slotId))]);
  // A source's slot always exists (its key refers to it), as the join this replaced assumed.
  return rows.flatMap((row) => {
    const slotName = names.get(row.slotId);
    return slotName === undefined ? [] : [{ ...row, slotName }];
  });
}

/** One page of sources, with each one's last run; filters: `enabled`, `format`, `q` (in the name). */
export async function feedSourcePage(
  reader: Reader,
  page: ListRequest<(typeof FEED_SOURCE_SORTS)[number]>,
  filter: { enabled?: boolean; format?: string; q?: string },
): Promise<{ rows: FeedSourceAnswer[]; total: number }> {
  const where = `($1::boolean IS NULL OR s.enabled = $1) AND ($2::text IS NULL OR s.format = $2)
    AND ($3::text IS NULL OR s.name ILIKE '%' || $3 || '%')`;
  const parameters = [filter.enabled ?? null, filter.format ?? null, filter.q ?? null];
  const [{ total }] = await reader.query(
    `SELECT count(*)::int AS total FROM ${FROM} WHERE ${where}`,
    parameters,
  );
  const rows = await withSlotNames<Omit<FeedSourceAnswer, 'slotName'>>(
    reader,
    await reader.query(
      `SELECT ${ANSWER_COLUMNS} FROM ${FROM} WHERE ${where}
       ORDER BY ${SORT_COLUMNS[page.sortField]} ${page.order}, s.id ${page.order}
       OFFSET $4 LIMIT $5`,
      [...parameters, page.offset, page.limit],
    ),
  );
  return { rows, total };
}

export async function feedSource(
  reader: Reader,
  id: number,
): Promise<Omit<FeedSourceRecordAnswer, 'postbackUrl'> | undefined> {
  const [row] = await withSlotNames<Omit<FeedSourceRecordAnswer, 'postbackUrl' | 'slotName'>>(
    reader,
    await reader.query(
      `SELECT ${ANSWER_COLUMNS}, s.postback_secret AS "postbackSecret" FROM ${FROM} WHERE s.id = $1`,
      [id],
    ),
  );
  return row;
}

/** A source as its events describe it (no secret, no credential value). */
export async function feedSourceSettings(
  manager: EntityManager,
  id: number,
): Promise<FeedSourceSettings | undefined> {
  const [row] = await manager.query(
    `SELECT s.name, s.format, s.url, s.schedule_minutes AS "scheduleMinutes", s.mode,
            s.slot_id AS "slotId", s.review_policy AS "reviewPolicy", s.sub_id_param AS "subIdParam",
            s.enabled, c.source_id IS NOT NULL AS "hasCredential"
     FROM feed_sources s LEFT JOIN feed_source_credentials c ON c.source_id = s.id WHERE s.id = $1`,
    [id],
  );
  return row;
}

/** The source of this name (its case aside, as names are unique), or undefined. */
export async function feedSourceNamed(reader: Reader, name: string): Promise<number | undefined> {
  const [row] = await reader.query('SELECT id FROM feed_sources WHERE lower(name) = lower($1)', [name]);
  return row?.id;
}

/** The columns a command writes, as stored. */
export interface FeedSourceRow {
  name: string;
  format: string;
  url: string | null;
  scheduleMinutes: number | null;
  mode: string;
  slotId: number;
  reviewPolicy: string;
  mapping: FeedCsvMapping | null;
  subIdParam: string;
  postbackMapping: FeedPostbackMapping;
  enabled: boolean;
}

/** The stored row locked for a change, or undefined. */
export async function lockFeedSource(
  manager: EntityManager,
  id: number,
): Promise<(FeedSourceRow & { hasCredential: boolean }) | undefined> {
  const [row] = await manager.query(
    `SELECT name, format, url, schedule_minutes AS "scheduleMinutes", mode, slot_id AS "slotId",
            review_policy AS "reviewPolicy", mapping, sub_id_param AS "subIdParam",
            postback_mapping AS "postbackMapping", enabled,
            EXISTS (SELECT 1 FROM feed_source_credentials WHERE source_id = $1) AS "hasCredential"
     FROM feed_sources WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return row;
}

const VALUES = (row: FeedSourceRow) => [
  row.name,
  row.format,
  row.url,
  row.scheduleMinutes,
  row.mode,
  row.slotId,
  row.reviewPolicy,
  row.mapping === null ? null : JSON.stringify(row.mapping),
  row.subIdParam,
  row.enabled,
  JSON.stringify(row.postbackMapping),
];

export async function insertFeedSource(
  manager: EntityManager,
  row: FeedSourceRow,
  postbackSecret: string,
): Promise<number> {
  const [{ id }] = await manager.query(
    `INSERT INTO feed_sources (name, format, url, schedule_minutes, mode, slot_id, review_policy,
                               mapping, sub_id_param, enabled, postback_mapping, postback_secret)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [...VALUES(row), postbackSecret],
  );
  return id;
}

export async function updateFeedSource(
  manager: EntityManager,
  id: number,
  row: FeedSourceRow,
): Promise<void> {
  await manager.query(
    `UPDATE feed_sources SET name = $1, format = $2, url = $3, schedule_minutes = $4, mode = $5,
       slot_id = $6, review_policy = $7, mapping = $8, sub_id_param = $9, enabled = $10,
       postback_mapping = $11, updated_at = now()
     WHERE id = $12`,
    [...VALUES(row), id],
  );
}

/** Sets (or with null clears) a source's credential. */
export async function saveFeedCredential(
  manager: EntityManager,
  sourceId: number,
  credential: FeedCredential | null,
): Promise<void> {
  if (credential === null) {
    await manager.query('DELETE FROM feed_source_credentials WHERE source_id = $1', [sourceId]);
    return;
  }
  await manager.query(
    `INSERT INTO feed_source_credentials (source_id, credential) VALUES ($1, $2)
     ON CONFLICT (source_id) DO UPDATE SET credential = EXCLUDED.credential`,
    [sourceId, JSON.stringify(credential)],
  );
}

/** The credential the fetcher sends for a source, or null. Never put it in an answer or a log. */
export async function feedCredential(reader: Reader, sourceId: number): Promise<FeedCredential | null> {
  const [row] = await reader.query('SELECT credential FROM feed_source_credentials WHERE source_id = $1', [
    sourceId,
  ]);
  return row?.credential ?? null;
}

/**
 * What a network's postback to the source is checked and read with: its secret and its mapping
 * of the network's fields. Never put the secret in an answer but the admin's source record.
 */
export async function feedSourcePostback(
  reader: Reader,
  id: number,
): Promise<{ secret: string; mapping: FeedPostbackMapping } | undefined> {
  const [row] = await reader.query(
    'SELECT postback_secret AS secret, postback_mapping AS mapping FROM feed_sources WHERE id = $1',
    [id],
  );
  return row;
}

export async function setPostbackSecret(
  manager: EntityManager,
  id: number,
  secret: string,
): Promise<boolean> {
  const changed = await manager.query(
    `WITH changed AS (UPDATE feed_sources SET postback_secret = $2, updated_at = now() WHERE id = $1 RETURNING id)
     SELECT * FROM changed`,
    [id, secret],
  );
  return changed.length > 0;
}

/** Deletes a source that never ran; false when it has runs (or does not exist). */
export async function deleteFeedSourceWithoutRuns(manager: EntityManager, id: number): Promise<boolean> {
  const deleted = await manager.query(
    `WITH deleted AS (
       DELETE FROM feed_sources s WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM feed_runs WHERE source_id = s.id)
       RETURNING id)
     SELECT * FROM deleted`,
    [id],
  );
  return deleted.length > 0;
}

export async function hasRuns(reader: Reader, sourceId: number): Promise<boolean> {
  const [row] = await reader.query('SELECT 1 FROM feed_runs WHERE source_id = $1 LIMIT 1', [sourceId]);
  return Boolean(row);
}

/**
 * The slot a source's coupons go into when the admin names none: the free slot with the most
 * seats (the free listing; paid slots are sold to merchants), the oldest on a tie.
 */
export const defaultFeedSlot = (reader: Reader) => largestFreeSlot(reader);

export const slotExists = (reader: Reader, id: number) => couponSlotExists(reader, id);
