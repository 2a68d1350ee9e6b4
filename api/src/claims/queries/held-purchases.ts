import type { Transaction } from '../../infrastructure/events/unit-of-work.js';
import { PurchaseQueuedForReview } from '../events/claim-events.js';

/** A purchase the earnings feature recorded for its shopper and holds until an admin decides. */
export interface HeldPurchase {
  kind: 'no_click' | 'over_cap';
  earningId: number;
  userId: number;
  merchantId: number;
  couponId: number;
  clickId: string | null;
  clickedAt: Date | null;
  orderId: string;
  orderDate: Date;
  amountPaise: number;
}

/**
 * Puts a held purchase in the admins' missing-cashback queue, in the transaction that recorded
 * it, with its event: the queue is where it is approved (credited) or rejected (cancelled).
 */
export async function queueHeldPurchase({ manager, record }: Transaction, held: HeldPurchase): Promise<void> {
  const [row] = await manager.query(
    `INSERT INTO missing_cashback_claims (kind, user_id, merchant_id, coupon_id, click_id, clicked_at, order_id,
                                          order_date, amount_paise, earning_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, ($8::timestamptz AT TIME ZONE 'Asia/Kolkata')::date, $9, $10)
     RETURNING id`,
    [
      held.kind,
      held.userId,
      held.merchantId,
      held.couponId,
      held.clickId,
      held.clickedAt,
      held.orderId,
      held.orderDate,
      held.amountPaise,
      held.earningId,
    ],
  );
  record(
    new PurchaseQueuedForReview(String(row.id), {
      kind: held.kind,
      userId: held.userId,
      merchantId: held.merchantId,
      earningId: held.earningId,
    }),
  );
}
