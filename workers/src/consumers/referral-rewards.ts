import { Injectable } from '@nestjs/common';
import { Environment } from '@offers/api/config/environment';
import { CashbackConfirmed, ReferralRewardEarned } from '@offers/api/earnings/events/earnings-events';
import { REWARDABLE_PURCHASE } from '@offers/api/earnings/queries/purchases';
import type { PublishedEvent } from '@offers/api/events/domain-event';
import { appendToOutbox } from '@offers/api/events/unit-of-work';
import { rupeesToPaise } from '@offers/api/rules/money';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';

/**
 * Pays the referral bonus: when a shopper's purchase of at least `REFERRAL_MIN_PURCHASE_RUPEES` is
 * confirmed and the shopper registered with another user's or a merchant's code (not the merchant
 * of that purchase's coupon), that referrer earns `REFERRAL_BONUS_RUPEES` once. The
 * partial unique index `earnings_referral_once` keeps it to one bonus per shopper, whichever of
 * several concurrent confirmations or redeliveries gets there first.
 */
@Injectable()
export class ReferralRewards implements EventConsumer {
  readonly name = 'referral-rewards';
  readonly handles = [CashbackConfirmed.type];

  constructor(private readonly environment: Environment) {}

  async handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    const earningId = Number(event.aggregateId);
    const [purchase] = await manager.query(REWARDABLE_PURCHASE, [
      earningId,
      rupeesToPaise(this.environment.REFERRAL_MIN_PURCHASE_RUPEES),
    ]);
    // Cancelled since, below the minimum, the referrer's own coupon, or a shopper who came without
    // a referrer: no bonus for this purchase (a later one may still earn it).
    if (!purchase) return;
    const amountPaise = rupeesToPaise(this.environment.REFERRAL_BONUS_RUPEES);
    const [reward] = await manager.query(
      `INSERT INTO earnings (kind, user_id, beneficiary_merchant_id, amount_paise, state, referred_user_id,
                             source_earning_id, confirmed_at)
       VALUES ('referral', $1, $2, $3, 'confirmed', $4, $5, now())
       ON CONFLICT (referred_user_id) WHERE kind = 'referral' DO NOTHING
       RETURNING id`,
      [
        purchase.referrerType === 'user' ? purchase.referrerId : null,
        purchase.referrerType === 'merchant' ? purchase.referrerId : null,
        amountPaise,
        purchase.userId,
        earningId,
      ],
    );
    if (!reward) return;
    await appendToOutbox(manager, [
      new ReferralRewardEarned(String(reward.id), {
        referrerType: purchase.referrerType,
        referrerId: purchase.referrerId,
        referredUserId: purchase.userId,
        amountPaise,
      }),
    ]);
  }
}
