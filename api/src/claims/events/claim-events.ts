import { DomainEvent } from '../../infrastructure/events/domain-event.js';
import type { ClaimKind } from '../../rules/claims.js';

abstract class ClaimEvent<P extends object> extends DomainEvent<P> {
  readonly aggregateType = 'MissingCashbackClaim';
}

/** A shopper claimed cashback for a click-out whose purchase the store never reported. */
export class MissingCashbackClaimed extends ClaimEvent<{
  userId: number;
  merchantId: number;
  clickId: string;
}> {
  static readonly type = 'MissingCashbackClaimed';
  readonly type = MissingCashbackClaimed.type;
}

/** A purchase was recorded for its shopper but waits for an admin (no click, or above the cap). */
export class PurchaseQueuedForReview extends ClaimEvent<{
  kind: ClaimKind;
  userId: number;
  merchantId: number;
  earningId: number;
}> {
  static readonly type = 'PurchaseQueuedForReview';
  readonly type = PurchaseQueuedForReview.type;
}

/** An admin approved an item of the queue: its purchase is now the shopper's pending cashback. */
export class ClaimApproved extends ClaimEvent<{
  kind: ClaimKind;
  userId: number;
  adminId: number;
  earningId: number;
}> {
  static readonly type = 'ClaimApproved';
  readonly type = ClaimApproved.type;
}

/** An admin rejected an item of the queue with a reason (a held purchase is cancelled with it). */
export class ClaimRejected extends ClaimEvent<{ kind: ClaimKind; userId: number; adminId: number }> {
  static readonly type = 'ClaimRejected';
  readonly type = ClaimRejected.type;
}
