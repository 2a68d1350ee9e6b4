import { DomainEvent } from '../../infrastructure/events/domain-event.js';

/**
 * A visitor left for a merchant's site through a coupon (`GET /api/out/:couponId`). The aggregate
 * id is the click id the merchant reports back in its postback. `counted` is false for a signed-in
 * shopper's click-out that its address already made on the coupon within the click window: the
 * click is kept for their cashback, the analytics count the address once (events recorded before
 * the field existed count).
 */
export class ClickedOut extends DomainEvent<{
  couponId: number;
  merchantId: number;
  userId: number | null;
  counted?: boolean;
}> {
  static readonly type = 'ClickedOut';
  readonly type = ClickedOut.type;
  readonly aggregateType = 'Click';
}
