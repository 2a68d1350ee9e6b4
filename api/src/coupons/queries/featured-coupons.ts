import type { EntityManager } from 'typeorm';
import type { CouponTexts } from '../../rules/coupons.js';
import { LIVE_COUPON_SQL } from './coupon-status.js';
import { COUPON_TEXTS_SQL } from './coupon-texts.js';

/** A coupon a mail features: its English title and its texts in other languages. */
export interface FeaturedCoupon {
  id: number;
  title: string;
  texts: CouponTexts;
}

/**
 * Those of the coupons still on offer, in the order given (a coupon that ended since a campaign
 * was written is left out), with their texts so each reader gets their language.
 */
export function liveFeaturedCoupons(
  reader: Pick<EntityManager, 'query'>,
  couponIds: readonly number[],
): Promise<FeaturedCoupon[]> {
  return reader.query(
    `SELECT id, title, ${COUPON_TEXTS_SQL('coupons.id')} AS texts FROM coupons
     WHERE id = ANY($1) AND ${LIVE_COUPON_SQL('coupons')}
     ORDER BY array_position($1, id)`,
    [couponIds],
  );
}
