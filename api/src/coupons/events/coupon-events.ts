import { DomainEvent } from '../../infrastructure/events/domain-event.js';
import type { CouponTexts } from '../../rules/coupons.js';

/** Notified (at commit) by the listing projection whenever a coupon appears in or leaves the lists. */
export const LISTINGS_CHANNEL = 'coupon_listings_changed';

abstract class CouponEvent<P extends object> extends DomainEvent<P> {
  readonly aggregateType = 'Coupon';
}

/**
 * A coupon was added, by its merchant's form or by an import. The later fields are absent from
 * events recorded before coupons had them (read models re-read the coupon, so those still apply).
 */
export class CouponSubmitted extends CouponEvent<{
  merchantId: number;
  title: string;
  requestedSlotId: number;
  /** Its title, description and terms in other languages. */
  texts?: CouponTexts;
  /** False for a deal without a code. */
  hasCode?: boolean;
  exclusive?: boolean;
  /** Its expiry (ISO), or null for an open-ended coupon. */
  expiryDate?: string | null;
}> {
  static readonly type = 'CouponSubmitted';
  readonly type = CouponSubmitted.type;
}

/** A pending coupon was edited; `texts` holds its texts in other languages after the edit. */
export class CouponUpdated extends CouponEvent<{ merchantId: number; texts?: CouponTexts }> {
  static readonly type = 'CouponUpdated';
  readonly type = CouponUpdated.type;
}

/**
 * A coupon that came without a form (a feed's) was changed by its source: texts, code, dates,
 * exclusive flag or link. Read models re-read the coupon.
 */
export class CouponRevised extends CouponEvent<{
  merchantId: number;
  texts: CouponTexts;
  exclusive: boolean;
}> {
  static readonly type = 'CouponRevised';
  readonly type = CouponRevised.type;
}

/** A coupon its source ended (a feed said so, or a full feed left it out) left the lists. */
export class CouponEnded extends CouponEvent<{ merchantId: number }> {
  static readonly type = 'CouponEnded';
  readonly type = CouponEnded.type;
}

export class CouponWithdrawn extends CouponEvent<{ merchantId: number; wasLive: boolean }> {
  static readonly type = 'CouponWithdrawn';
  readonly type = CouponWithdrawn.type;
}

export class CouponApproved extends CouponEvent<{
  merchantId: number;
  slotId: number;
  title: string;
  /** The texts it went live with in other languages (absent from older events). */
  texts?: CouponTexts;
}> {
  static readonly type = 'CouponApproved';
  readonly type = CouponApproved.type;
}

export class CouponRejected extends CouponEvent<{ merchantId: number; reason: string; title: string }> {
  static readonly type = 'CouponRejected';
  readonly type = CouponRejected.type;
}

export class CouponExpired extends CouponEvent<{ merchantId: number }> {
  static readonly type = 'CouponExpired';
  readonly type = CouponExpired.type;
}

export class CouponRevealed extends CouponEvent<{ merchantId: number }> {
  static readonly type = 'CouponRevealed';
  readonly type = CouponRevealed.type;
}

/** A shopper said whether the code worked (its latest vote of the day for this coupon). */
export class CouponVoted extends CouponEvent<{ merchantId: number; worked: boolean }> {
  static readonly type = 'CouponVoted';
  readonly type = CouponVoted.type;
}

/** Every event that changes what the public listings show. */
export const LISTING_EVENTS = [
  CouponApproved.type,
  CouponRevised.type,
  CouponEnded.type,
  CouponExpired.type,
  CouponWithdrawn.type,
  CouponRevealed.type,
  CouponVoted.type,
] as const;
