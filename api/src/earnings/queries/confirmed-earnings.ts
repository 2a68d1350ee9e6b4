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
