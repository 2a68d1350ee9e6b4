import { DomainEvent } from '../../events/domain-event.js';

/**
 * A visitor left for a merchant's site through a coupon (`GET /api/out/:couponId`). The aggregate
 * id is the click id the merchant reports back in its postback.
 */
export class ClickedOut extends DomainEvent<{ couponId: number; merchantId: number; userId: number | null }> {
  static readonly type = 'ClickedOut';
  readonly type = ClickedOut.type;
  readonly aggregateType = 'Click';
}
