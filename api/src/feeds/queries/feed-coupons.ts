import type { DataSource, EntityManager } from 'typeorm';
import type { FeedRow } from '../formats/index.js';

/**
 * SQL of `feed_coupons` and `feed_run_rows` (see migration FeedCoupons1764920000000): feed coupons'
 * identity and a run's rows as read, used by the import.
 */

type Reader = Pick<DataSource | EntityManager, 'query'>;

/** What a run's row did; stored with the row in the transaction that applied it. */
export type FeedRowOutcome =
  | 'added'
  | 'updated'
  | 'unchanged'
  | 'ended'
  | 'duplicate'
  | 'waiting'
  | 'rejected';

/** A staged row as JSON keeps it (dates as ISO strings). */
export type StagedRow = Omit<FeedRow, 'startsAt' | 'endsAt'> & {
  startsAt: string | null;
  endsAt: string | null;
};

/** Forgets what an interrupted read staged, so the run reads its feed again from the start. */
export async function clearStagedRows(manager: EntityManager, runId: number): Promise<void> {
  await manager.query('DELETE FROM feed_run_rows WHERE run_id = $1', [runId]);
  await manager.query('DELETE FROM feed_run_rejections WHERE run_id = $1', [runId]);
}

/**
 * The rows that are one coupon: of one advertiser and code whatever their ids and languages (a
 * network gives a translation its own id), and otherwise of one row id. An ended row is known by
 * its id alone.
 */
export const groupKeyOf = (row: FeedRow): string =>
  // A code has no colon, so the advertiser's id after it is unambiguous.
  row.code !== null && !row.ended
    ? `code:${row.code.toUpperCase()}:${row.advertiser.id}`
    : `row:${row.rowId}`;

/** Stages rows of a run (one statement for the lot). */
export async function stageRows(manager: Reader, runId: number, rows: readonly FeedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await manager.query(
    `INSERT INTO feed_run_rows (run_id, row_id, language, group_key, line, row)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::jsonb[])
     ON CONFLICT DO NOTHING`,
    [
      runId,
      rows.map((row) => row.rowId),
      rows.map((row) => row.language),
      rows.map(groupKeyOf),
      rows.map((row) => row.line),
      rows.map((row) => JSON.stringify(row)),
    ],
  );
}

/** Marks a run's feed as read through: its rows are all staged. */
export async function markRunRead(manager: Reader, runId: number, rowsRead: number, rejected: number) {
  await manager.query('UPDATE feed_runs SET read_at = now(), rows_read = $2, rejected = $3 WHERE id = $1', [
    runId,
    rowsRead,
    rejected,
  ]);
}

/** The next groups of a run without an outcome, after `afterKey`, with all their rows. */
export async function pendingRowGroups(
  reader: Reader,
  runId: number,
  afterKey: string,
  limit: number,
): Promise<Array<{ key: string; rows: StagedRow[] }>> {
  // A group's rows get their outcome together, so a pending group's rows are all pending: both
  // the lot's last key and its rows are read from the pending index, a range of it per lot. (An
  // IN over the keys compared them in the column's own collation, which the index does not
  // have: each lot then read the run's every row again.)
  return reader.query(
    `SELECT group_key COLLATE "C" AS key, array_agg(row ORDER BY line) AS rows FROM feed_run_rows
     WHERE run_id = $1 AND outcome IS NULL AND group_key COLLATE "C" > $2
       AND group_key COLLATE "C" <= (
         SELECT max(key) FROM (
           SELECT DISTINCT group_key COLLATE "C" AS key FROM feed_run_rows
           WHERE run_id = $1 AND outcome IS NULL AND group_key COLLATE "C" > $2
           ORDER BY 1 LIMIT $3) lot)
     GROUP BY 1 ORDER BY 1`,
    [runId, afterKey, limit],
  );
}

/** Sets the outcome of groups of a run (all their rows). */
export async function setRowOutcome(
  manager: Reader,
  runId: number,
  keys: readonly string[],
  outcome: FeedRowOutcome,
): Promise<void> {
  if (keys.length === 0) return;
  await manager.query(
    'UPDATE feed_run_rows SET outcome = $3 WHERE run_id = $1 AND group_key = ANY($2::text[])',
    [runId, keys, outcome],
  );
}

/** How many groups (coupons) of a run had each outcome. */
export async function runOutcomes(reader: Reader, runId: number): Promise<Record<FeedRowOutcome, number>> {
  const rows: Array<{ outcome: FeedRowOutcome; n: number }> = await reader.query(
    `SELECT outcome, count(DISTINCT group_key)::int AS n FROM feed_run_rows
     WHERE run_id = $1 AND outcome IS NOT NULL GROUP BY outcome`,
    [runId],
  );
  const counts = { added: 0, updated: 0, unchanged: 0, ended: 0, duplicate: 0, waiting: 0, rejected: 0 };
  for (const { outcome, n } of rows) counts[outcome] = n;
  return counts;
}

export async function dropStagedRows(manager: Reader, runId: number): Promise<void> {
  await manager.query('DELETE FROM feed_run_rows WHERE run_id = $1', [runId]);
}

export interface FeedCouponRecord {
  rowId: string;
  couponId: number;
  contentHash: string;
  ended: boolean;
}

/** The feed coupons of a source for these row ids (runs of a source never overlap). */
export async function feedCouponsOf(
  manager: Reader,
  sourceId: number,
  rowIds: readonly string[],
): Promise<Map<string, FeedCouponRecord>> {
  const rows: FeedCouponRecord[] = await manager.query(
    `SELECT row_id AS "rowId", coupon_id AS "couponId", content_hash AS "contentHash", ended
     FROM feed_coupons WHERE source_id = $1 AND row_id = ANY($2::text[])`,
    [sourceId, rowIds],
  );
  return new Map(rows.map((row) => [row.rowId, row]));
}

export async function insertFeedCoupon(
  manager: EntityManager,
  coupon: {
    sourceId: number;
    rowId: string;
    couponId: number;
    contentHash: string;
    trackingUrl: string | null;
    runId: number;
  },
): Promise<void> {
  await manager.query(
    `INSERT INTO feed_coupons (source_id, row_id, coupon_id, content_hash, tracking_url, last_run_id)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [coupon.sourceId, coupon.rowId, coupon.couponId, coupon.contentHash, coupon.trackingUrl, coupon.runId],
  );
}

export async function updateFeedCoupon(
  manager: EntityManager,
  coupon: {
    sourceId: number;
    rowId: string;
    contentHash: string;
    trackingUrl: string | null;
    ended: boolean;
    runId: number;
  },
): Promise<void> {
  await manager.query(
    `UPDATE feed_coupons SET content_hash = $3, tracking_url = $4, ended = $5, last_run_id = $6
     WHERE source_id = $1 AND row_id = $2`,
    [coupon.sourceId, coupon.rowId, coupon.contentHash, coupon.trackingUrl, coupon.ended, coupon.runId],
  );
}

/** Where a feed coupon's click-out goes: the network's tracking link and the source's sub-id parameter. */
export async function feedCouponTarget(
  reader: Reader,
  couponId: number,
): Promise<{ trackingUrl: string; subIdParam: string } | null> {
  const [row] = await reader.query(
    `SELECT f.tracking_url AS "trackingUrl", s.sub_id_param AS "subIdParam"
     FROM feed_coupons f JOIN feed_sources s ON s.id = f.source_id
     WHERE f.coupon_id = $1 AND f.tracking_url IS NOT NULL`,
    [couponId],
  );
  return row ?? null;
}

/** The feed source a coupon came from, or null for a coupon of no feed. */
export async function feedSourceOfCoupon(reader: Reader, couponId: number): Promise<number | null> {
  const [row] = await reader.query('SELECT source_id AS "sourceId" FROM feed_coupons WHERE coupon_id = $1', [
    couponId,
  ]);
  return row?.sourceId ?? null;
}

/** The source's feed coupons not ended: the "live" a full run's half guard compares with. */
export async function liveFeedCouponCount(reader: Reader, sourceId: number): Promise<number> {
  const [{ n }] = await reader.query(
    'SELECT count(*)::int AS n FROM feed_coupons WHERE source_id = $1 AND NOT ended',
    [sourceId],
  );
  return n;
}

/** Up to `limit` feed coupons of the source, not ended, that the run's feed did not list. */
export function endingFeedCoupons(
  reader: Reader,
  sourceId: number,
  runId: number,
  limit: number,
): Promise<Array<{ rowId: string; couponId: number }>> {
  return reader.query(
    `SELECT f.row_id AS "rowId", f.coupon_id AS "couponId" FROM feed_coupons f
     WHERE f.source_id = $1 AND NOT f.ended
       AND NOT EXISTS (SELECT 1 FROM feed_run_rows r WHERE r.run_id = $2 AND r.row_id = f.row_id)
     ORDER BY f.row_id LIMIT $3`,
    [sourceId, runId, limit],
  );
}

/** Marks feed coupons ended by the run. */
export async function markFeedCouponsEnded(
  manager: Reader,
  sourceId: number,
  rowIds: readonly string[],
  runId: number,
): Promise<void> {
  await manager.query(
    'UPDATE feed_coupons SET ended = true, last_run_id = $3 WHERE source_id = $1 AND row_id = ANY($2::text[])',
    [sourceId, rowIds, runId],
  );
}

/** The advertisers of a run's rows that wait for a mapping, with how many row ids wait for each. */
export function waitingAdvertisers(
  reader: Reader,
  runId: number,
): Promise<Array<{ id: string; name: string | null; siteUrl: string | null; rows: number }>> {
  return reader.query(
    `SELECT row->'advertiser'->>'id' AS id, max(row->'advertiser'->>'name') AS name,
            max(row->'advertiser'->>'siteUrl') AS "siteUrl", count(DISTINCT group_key)::int AS rows
     FROM feed_run_rows WHERE run_id = $1 AND outcome = 'waiting'
     GROUP BY 1 ORDER BY 1`,
    [runId],
  );
}

/** Which of these coupons came from a feed. */
export async function feedCouponIds(reader: Reader, couponIds: readonly number[]): Promise<Set<number>> {
  const rows: Array<{ couponId: number }> = await reader.query(
    'SELECT coupon_id AS "couponId" FROM feed_coupons WHERE coupon_id = ANY($1::int[])',
    [couponIds],
  );
  return new Set(rows.map((row) => row.couponId));
}

/**
 * Each mapped store's best payout among a run's rows that are not ended: its highest percentage,
 * else (a store with flat payouts only) its highest amount in rupees.
 */
export async function runStorePayouts(
  reader: Reader,
  runId: number,
  sourceId: number,
): Promise<Array<{ storeId: number; payout: { value: number; type: 'percent' | 'flat' } }>> {
  const rows: Array<{ storeId: number; type: 'percent' | 'flat'; value: string }> = await reader.query(
    `SELECT DISTINCT ON (a.merchant_id) a.merchant_id AS "storeId", r.row->'payout'->>'type' AS type,
            (r.row->'payout'->>'value')::numeric AS value
     FROM feed_run_rows r
     JOIN feed_advertisers a ON a.source_id = $2 AND a.advertiser_id = r.row->'advertiser'->>'id'
     WHERE r.run_id = $1 AND a.merchant_id IS NOT NULL AND jsonb_typeof(r.row->'payout') = 'object'
       AND r.row->'payout'->>'type' IN ('percent', 'flat') AND NOT coalesce((r.row->>'ended')::boolean, false)
     ORDER BY a.merchant_id, r.row->'payout'->>'type' = 'flat', (r.row->'payout'->>'value')::numeric DESC`,
    [runId, sourceId],
  );
  return rows.map((row) => ({ storeId: row.storeId, payout: { value: Number(row.value), type: row.type } }));
}

/** What the import keeps of a feed coupon: its row, coupon, content hash, tracking link and last run. */
export interface FeedCouponIdentity {
  sourceId: number;
  rowId: string;
  couponId: number;
  contentHash: string;
  trackingUrl: string | null;
  runId: number;
}

/** Inserts the identities of a lot's new feed coupons (one statement). */
export async function insertFeedCoupons(
  manager: Reader,
  coupons: readonly FeedCouponIdentity[],
): Promise<void> {
  if (coupons.length === 0) return;
  await manager.query(
    `INSERT INTO feed_coupons (source_id, row_id, coupon_id, content_hash, tracking_url, last_run_id)
     SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[], $6::int[])`,
    [
      coupons.map((coupon) => coupon.sourceId),
      coupons.map((coupon) => coupon.rowId),
      coupons.map((coupon) => coupon.couponId),
      coupons.map((coupon) => coupon.contentHash),
      coupons.map((coupon) => coupon.trackingUrl),
      coupons.map((coupon) => coupon.runId),
    ],
  );
}

/** Writes what a lot's revised feed coupons now say; each is not ended any more (one statement). */
export async function updateFeedCoupons(
  manager: Reader,
  coupons: readonly FeedCouponIdentity[],
): Promise<void> {
  if (coupons.length === 0) return;
  await manager.query(
    `UPDATE feed_coupons f SET content_hash = c.content_hash, tracking_url = c.tracking_url, ended = false,
                               last_run_id = c.run_id
     FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[])
          AS c (source_id, row_id, content_hash, tracking_url, run_id)
     WHERE f.source_id = c.source_id AND f.row_id = c.row_id`,
    [
      coupons.map((coupon) => coupon.sourceId),
      coupons.map((coupon) => coupon.rowId),
      coupons.map((coupon) => coupon.contentHash),
      coupons.map((coupon) => coupon.trackingUrl),
      coupons.map((coupon) => coupon.runId),
    ],
  );
}

/**
 * The affiliate network (its feed source's name) whose tracking link each coupon sends shoppers
 * through; coupons of no feed are left out (their click-outs go to the store's own link).
 */
export async function feedNetworksOfCoupons(
  reader: Reader,
  couponIds: readonly number[],
): Promise<Map<number, string>> {
  if (couponIds.length === 0) return new Map();
  const rows: Array<{ couponId: number; network: string }> = await reader.query(
    `SELECT f.coupon_id AS "couponId", s.name AS network
     FROM feed_coupons f JOIN feed_sources s ON s.id = f.source_id
     WHERE f.coupon_id = ANY($1::int[]) AND f.tracking_url IS NOT NULL`,
    [[...new Set(couponIds)]],
  );
  return new Map(rows.map((row) => [row.couponId, row.network]));
}
