import { DomainEvent } from '../../infrastructure/events/domain-event.js';

abstract class EarningEvent<P extends object> extends DomainEvent<P> {
  readonly aggregateType = 'Earning';
}

/**
 * A merchant or an affiliate network reported a purchase made through a coupon; a network's
 * names the feed source it came through (`networkSourceId`).
 */
export class PurchaseRecorded extends EarningEvent<{
  merchantId: number;
  couponId: number;
  userId: number;
  purchaseAmountPaise: number;
  cashbackPaise: number;
  networkSourceId?: number;
}> {
  static readonly type = 'PurchaseRecorded';
  readonly type = PurchaseRecorded.type;
}

/**
 * A purchase that waited in the claims queue (reported without a click, or above its store's cap)
 * was approved by an admin: from now on it is the shopper's pending cashback.
 */
export class PurchaseCredited extends EarningEvent<{
  userId: number;
  merchantId: number;
  cashbackPaise: number;
}> {
  static readonly type = 'PurchaseCredited';
  readonly type = PurchaseCredited.type;
}

/** `amountPaise` (the cashback) is absent from events recorded before it was added. */
export class CashbackConfirmed extends EarningEvent<{
  userId: number;
  merchantId: number;
  amountPaise?: number;
}> {
  static readonly type = 'CashbackConfirmed';
  readonly type = CashbackConfirmed.type;
}

/** `amountPaise` is absent from events recorded before it was added. */
export class EarningPaid extends EarningEvent<{ kind: string; amountPaise?: number }> {
  static readonly type = 'EarningPaid';
  readonly type = EarningPaid.type;
}

/** `reason`: why the network declined the purchase, when its postback said (absent otherwise). */
export class EarningCancelled extends EarningEvent<{ kind: string; from: string; reason?: string }> {
  static readonly type = 'EarningCancelled';
  readonly type = EarningCancelled.type;
}

/** A shopper's purchase that may earn the referrer's bonus was tracked: the bonus waits, pending, for it to be confirmed. */
export class ReferralBonusPending extends EarningEvent<{
  referrerType: 'user' | 'merchant';
  referrerId: number;
  referredUserId: number;
  amountPaise: number;
}> {
  static readonly type = 'ReferralBonusPending';
  readonly type = ReferralBonusPending.type;
}

/** The referrer of a shopper earned the bonus: the shopper's first purchase that earns it was confirmed. */
export class ReferralRewardEarned extends EarningEvent<{
  referrerType: 'user' | 'merchant';
  referrerId: number;
  referredUserId: number;
  amountPaise: number;
}> {
  static readonly type = 'ReferralRewardEarned';
  readonly type = ReferralRewardEarned.type;
}

/** The merchant's postback secret changed (the secret itself is never in the log). */
export class PostbackSecretRotated extends DomainEvent<Record<string, never>> {
  static readonly type = 'PostbackSecretRotated';
  readonly type = PostbackSecretRotated.type;
  readonly aggregateType = 'Merchant';
}
