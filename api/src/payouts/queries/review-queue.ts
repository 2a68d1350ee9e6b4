import type { EntityManager } from 'typeorm';

/**
 * How many payouts shoppers requested wait for an admin, and since when the oldest waits, for the
 * admins' dashboard: read through the index of open payouts.
 */
export async function payoutsAwaitingPayment(
  reader: Pick<EntityManager, 'query'>,
): Promise<{ waiting: number; oldestSince: Date | null }> {
  const [row] = await reader.query(
    `SELECT count(*)::int AS waiting, min(requested_at) AS "oldestSince" FROM payouts WHERE state = 'requested'`,
  );
  return row;
}
