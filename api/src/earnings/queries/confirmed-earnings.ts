import type { EntityManager } from 'typeorm';

/**
 * The shopper's confirmed earnings in paise (cashback and referral bonuses), what the balance is
 * paid from. Earnings an admin marked paid outside a payout are no longer confirmed.
 */
export async function confirmedEarningsPaise(reader: Pick<EntityManager, 'query'>, userId: number) {
  const [row]: Array<{ paise: string }> = await reader.query(
    "SELECT coalesce(sum(amount_paise), 0)::text AS paise FROM earnings WHERE user_id = $1 AND state = 'confirmed'",
    [userId],
  );
  return Number(row.paise);
}

/**
 * Money a store's account still owes or is owed through the product: cashback on its store that
 * is pending or confirmed (not yet paid to the shopper nor cancelled), and referral bonuses the
 * merchant earned and was not yet paid. Settled earnings (paid, cancelled) stay as records.
 */
export async function unsettledEarningsOfMerchant(
  reader: Pick<EntityManager, 'query'>,
  merchantId: number,
): Promise<number> {
  const [row]: Array<{ count: number }> = await reader.query(
    `SELECT count(*)::int AS count FROM earnings
     WHERE (merchant_id = $1 AND state IN ('pending', 'confirmed'))
        OR (beneficiary_merchant_id = $1 AND state = 'confirmed')`,
    [merchantId],
  );
  return row.count;
}
