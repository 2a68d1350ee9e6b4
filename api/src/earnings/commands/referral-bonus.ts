import { ConflictException } from '@nestjs/common';
import { referrerOfShopper } from '../../identity/queries/profiles.js';
import type { Environment } from '../../infrastructure/config/environment.js';
import type { Transaction } from '../../infrastructure/events/unit-of-work.js';
import { lockedBalanceOf, lockShopperBalance } from '../../payouts/queries/payouts.js';
import { REFERRAL_BONUS } from '../../rules/engagement.js';
import { rupeesToPaise } from '../../rules/money.js';
import { EarningCancelled, ReferralBonusPending, ReferralRewardEarned } from '../events/earnings-events.js';
import {
  BONUS_OF_PURCHASE,
  BONUS_PURCHASES,
  BONUS_WITHHELD,
  LIVE_REFERRAL_BONUS,
} from '../queries/purchases.js';

export type ReferralSettings = Pick<Environment, 'REFERRAL_BONUS_RUPEES' | 'REFERRAL_MIN_PURCHASE_RUPEES'>;

/**
 * Cancels the bonus a purchase earned, as the purchase is cancelled (same transaction). A bonus
 * already paid, or confirmed and since taken into its referrer's payouts, cannot be taken back:
 * the purchase's cancellation is refused (409) rather than leave a balance below zero.
 */
export async function cancelBonusOfPurchase({ manager, record }: Transaction, purchaseId: number) {
  const [bonus] = await manager.query(BONUS_OF_PURCHASE, [purchaseId]);
  if (!bonus) return;
  if (bonus.state === 'paid') {
    throw new ConflictException({ statusCode: 409, message: REFERRAL_BONUS.bonusPaid });
  }
  if (bonus.state === 'confirmed' && bonus.userId !== null) {
    const balance = await lockedBalanceOf(manager, bonus.userId);
    if (balance && balance.availablePaise < Number(bonus.amountPaise)) {
      throw new ConflictException({ statusCode: 409, message: REFERRAL_BONUS.bonusWithdrawn });
    }
  }
  await manager.query("UPDATE earnings SET state = 'cancelled', cancelled_at = now() WHERE id = $1", [
    bonus.id,
  ]);
  record(new EarningCancelled(String(bonus.id), { kind: 'referral', from: bonus.state }));
}

/**
 * Brings the shopper's referral bonus in line with the shopper's purchases, in the transaction
 * that changed one of them. The referrer (a user or a merchant with a code) earns
 * `REFERRAL_BONUS_RUPEES` once, for a purchase of at least `REFERRAL_MIN_PURCHASE_RUPEES` that is
 * not on the referrer's own store. The bonus exists, pending, from the first such purchase
 * tracked; it is confirmed with the first such purchase confirmed (moving to it, if another
 * earned it pending); it goes with its purchase when that is cancelled, and comes back pending or
 * confirmed with another purchase that may earn it. A bonus an admin cancelled itself is not
 * earned again. Runs under the shopper's lock, so purchases of one shopper settle one at a time.
 */
export async function settleReferralBonus(
  { manager, record }: Transaction,
  shopperId: number,
  settings: ReferralSettings,
): Promise<void> {
  const referrer = await referrerOfShopper(manager, shopperId);
  if (!referrer) return;
  await lockShopperBalance(manager, shopperId);
  const amountPaise = rupeesToPaise(settings.REFERRAL_BONUS_RUPEES);
  const [best] = await manager.query(BONUS_PURCHASES, [
    shopperId,
    rupeesToPaise(settings.REFERRAL_MIN_PURCHASE_RUPEES),
    referrer.referrerType === 'merchant' ? referrer.referrerId : null,
  ]);
  const earned = (bonusId: number) =>
    new ReferralRewardEarned(String(bonusId), {
      referrerType: referrer.referrerType,
      referrerId: referrer.referrerId,
      referredUserId: shopperId,
      amountPaise,
    });
  const [bonus] = await manager.query(LIVE_REFERRAL_BONUS, [shopperId]);
  if (bonus) {
    // A confirmed or paid bonus stays with its purchase; only its cancellation takes it away.
    if (bonus.state !== 'pending') return;
    if (!best) {
      await manager.query("UPDATE earnings SET state = 'cancelled', cancelled_at = now() WHERE id = $1", [
        bonus.id,
      ]);
      record(new EarningCancelled(String(bonus.id), { kind: 'referral', from: 'pending' }));
      return;
    }
    const confirmed = best.state !== 'pending';
    if (best.id === bonus.purchaseId && !confirmed) return;
    await manager.query(
      `UPDATE earnings SET source_earning_id = $2, state = $3,
                           confirmed_at = CASE WHEN $3 = 'confirmed' THEN now() END
       WHERE id = $1`,
      [bonus.id, best.id, confirmed ? 'confirmed' : 'pending'],
    );
    if (confirmed) record(earned(bonus.id));
    return;
  }
  if (!best) return;
  if ((await manager.query(BONUS_WITHHELD, [shopperId])).length > 0) return;
  const confirmed = best.state !== 'pending';
  const [created] = await manager.query(
    `INSERT INTO earnings (kind, user_id, beneficiary_merchant_id, amount_paise, state, referred_user_id,
                           source_earning_id, confirmed_at)
     VALUES ('referral', $1, $2, $3, $4, $5, $6, CASE WHEN $4 = 'confirmed' THEN now() END)
     RETURNING id`,
    [
      referrer.referrerType === 'user' ? referrer.referrerId : null,
      referrer.referrerType === 'merchant' ? referrer.referrerId : null,
      amountPaise,
      confirmed ? 'confirmed' : 'pending',
      shopperId,
      best.id,
    ],
  );
  record(
    confirmed
      ? earned(created.id)
      : new ReferralBonusPending(String(created.id), {
          referrerType: referrer.referrerType,
          referrerId: referrer.referrerId,
          referredUserId: shopperId,
          amountPaise,
        }),
  );
}
