import type { EntityManager } from 'typeorm';

/**
 * How many coupons wait for an admin's review, and since when the oldest waits, for the admins'
 * dashboard: a min() over the waiting rows through the index on (status, submitted_at).
 */
export async function couponsAwaitingReview(
  reader: Pick<EntityManager, 'query'>,
): Promise<{ waiting: number; oldestSince: Date | null }> {
  const [row] = await reader.query(
    `SELECT count(*)::int AS waiting, min(submitted_at) AS "oldestSince" FROM coupons WHERE status = 'pending'`,
  );
  return row;
}
