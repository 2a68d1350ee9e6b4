import type { EntityManager } from 'typeorm';

/** A demo purchase's cashback, as the demo seeds write it (with the events the commands record). */
export interface DemoEarning {
  userId: number;
  merchantId: number;
  couponId: number;
  purchaseReference: string;
  purchasePaise: number;
  rateBp: number;
  cashbackPaise: number;
  confirmed: boolean;
  daysAgo: number;
}

/** Writes a demo purchase's cashback, bought `daysAgo`; answers its id. Not in production. */
export async function addDemoEarning(
  manager: Pick<EntityManager, 'query'>,
  earning: DemoEarning,
): Promise<number> {
  const [row]: Array<{ id: number }> = await manager.query(
    `INSERT INTO earnings (kind, user_id, merchant_id, coupon_id, purchase_reference, purchase_type,
                           purchase_amount_paise, rate_bp, amount_paise, state, purchased_at, created_at,
                           confirmed_at)
     VALUES ('cashback', $1, $2, $3, $4, 'online', $5, $6, $7, $8, now() - make_interval(days => $9),
             now() - make_interval(days => $9), CASE WHEN $8 = 'confirmed' THEN now() - interval '1 day' END)
     RETURNING id`,
    [
      earning.userId,
      earning.merchantId,
      earning.couponId,
      earning.purchaseReference,
      earning.purchasePaise,
      earning.rateBp,
      earning.cashbackPaise,
      earning.confirmed ? 'confirmed' : 'pending',
      earning.daysAgo,
    ],
  );
  return row!.id;
}
