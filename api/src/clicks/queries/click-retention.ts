/** How long anonymous click-outs are kept, and what is kept of them after. */
import type { DataSource, EntityManager } from 'typeorm';
import { trackedClicks } from '../../earnings/queries/purchases.js';
import { MARKET_TIME_ZONE } from '../../rules/coupons.js';

type Writer = Pick<EntityManager, 'query'>;

/** The oldest anonymous clicks past the period, after the cursor, locked for the caller's transaction. */
const OLD_ANONYMOUS_CLICKS = `
  SELECT id, clicked_at AS "clickedAt" FROM clicks
  WHERE user_id IS NULL AND clicked_at < now() - make_interval(days => $1)
    AND (clicked_at, id) > ($2::timestamptz, $3::text)
  ORDER BY clicked_at, id LIMIT $4 FOR UPDATE SKIP LOCKED`;

/**
 * Deletes the clicks named and adds them to their days' counts (India's day, as the analytics
 * count), in one statement: a click leaves the table only as a count.
 */
const COUNT_AND_DELETE = `
  WITH gone AS (
    DELETE FROM clicks k USING unnest($1::text[], $2::timestamptz[]) AS old(id, at)
    WHERE k.id = old.id AND k.clicked_at = old.at AND k.user_id IS NULL
    RETURNING k.coupon_id, k.merchant_id, k.clicked_at),
  counted AS (
    INSERT INTO click_days AS d (day, coupon_id, merchant_id, count)
    SELECT (clicked_at AT TIME ZONE '${MARKET_TIME_ZONE}')::date, coupon_id, merchant_id, count(*)
    FROM gone GROUP BY 1, 2, 3
    ON CONFLICT (day, coupon_id, merchant_id) DO UPDATE SET count = d.count + EXCLUDED.count
    RETURNING 1)
  SELECT (SELECT count(*) FROM gone)::int AS removed, (SELECT count(*) FROM counted)::int AS days`;

/**
 * Anonymous click-outs (no shopper: nobody's cashback hangs on them) older than `keepDays` become
 * daily counts per coupon and merchant in `click_days` and are deleted, a batch per transaction.
 * A click an earning names (a forgotten shopper's, kept with the earning the law keeps) stays.
 * The analytics are unaffected: they count the `ClickedOut` events, not these rows. Answers how
 * many clicks went.
 */
export async function sweepAnonymousClicks(
  dataSource: Pick<DataSource, 'transaction'>,
  keepDays: number,
  batch = 5000,
): Promise<number> {
  let removed = 0;
  let after: { clickedAt: Date; id: string } = { clickedAt: new Date(0), id: '' };
  for (;;) {
    const done = await dataSource.transaction(async (manager) => {
      const rows: Array<{ id: string; clickedAt: Date }> = await manager.query(OLD_ANONYMOUS_CLICKS, [
        keepDays,
        after.clickedAt,
        after.id,
        batch,
      ]);
      if (rows.length === 0) return true;
      after = rows[rows.length - 1]!;
      const tracked = await trackedClicks(
        manager,
        rows.map((row) => row.id),
      );
      const untracked = rows.filter((row) => !tracked.has(row.id));
      if (untracked.length > 0) removed += await countAndDelete(manager, untracked);
      return rows.length < batch;
    });
    if (done) return removed;
  }
}

async function countAndDelete(manager: Writer, clicks: Array<{ id: string; clickedAt: Date }>) {
  const [{ removed }]: Array<{ removed: number }> = await manager.query(COUNT_AND_DELETE, [
    clicks.map((click) => click.id),
    clicks.map((click) => click.clickedAt),
  ]);
  return removed;
}
