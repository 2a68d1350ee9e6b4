import { NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { merchantsAsStores } from '../../identity/queries/store-identities.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { COUPON_VOTES, MARKET_TIME_ZONE } from '../../rules/coupons.js';
import { CouponVoted } from '../events/coupon-events.js';
import { LIVE_COUPON_SQL } from '../queries/coupon-status.js';

/** "Did this code work?" from one visitor (an account, or a cookie id with the address). */
export class VoteOnCoupon extends Command<void> {
  constructor(
    readonly couponId: number,
    readonly visitor: string,
    readonly worked: boolean,
  ) {
    super();
  }
}

/**
 * Keeps the visitor's vote of the day (India's day) for a live coupon, replacing an earlier one
 * that day, and records it for the listing read model to count.
 */
@CommandHandler(VoteOnCoupon)
export class VoteOnCouponHandler implements ICommandHandler<VoteOnCoupon> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ couponId, visitor, worked }: VoteOnCoupon): Promise<void> {
    await this.unitOfWork.run(async ({ manager, record }) => {
      const [coupon] = await manager.query(
        `SELECT c.merchant_id FROM coupons c WHERE c.id = $1 AND ${LIVE_COUPON_SQL('c')}`,
        [couponId],
      );
      // Only a coupon shoppers may see takes votes: its store must be shown too.
      const store =
        coupon && (await merchantsAsStores(manager, [coupon.merchant_id])).get(coupon.merchant_id);
      if (!store?.isPublic)
        throw new NotFoundException({ statusCode: 404, message: COUPON_VOTES.unavailable });
      await manager.query(
        `INSERT INTO coupon_votes (coupon_id, visitor, day, worked, voted_at)
         VALUES ($1, $2, (now() AT TIME ZONE '${MARKET_TIME_ZONE}')::date, $3, now())
         ON CONFLICT (coupon_id, visitor, day) DO UPDATE SET worked = EXCLUDED.worked, voted_at = EXCLUDED.voted_at`,
        [couponId, visitor, worked],
      );
      record(new CouponVoted(String(couponId), { merchantId: coupon.merchant_id, worked }));
    });
  }
}
