import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Redis } from 'ioredis';
import { Environment } from '../../config/environment.js';
import { UnitOfWork } from '../../events/unit-of-work.js';
import { CLIENT_REDIS } from '../../platform/platform.module.js';
import { countInWindow, refuseOverLimit } from '../../redis/window-counter.js';
import { OFFER_UNAVAILABLE, REVEAL_LIMITS } from '../../rules/coupons.js';
import { CouponRevealed } from '../events/coupon-events.js';
import { USABLE_COUPON } from '../queries/coupon-records.js';

/**
 * Decides whether a reveal counts towards popularity. Counters live in Redis, shared by every API
 * process. Without Redis the code is still revealed, but the click is not counted.
 */
@Injectable()
export class RevealLimiter {
  constructor(
    @Inject(CLIENT_REDIS) private readonly redis: Redis,
    private readonly environment: Environment,
  ) {}

  async shouldCount(address: string, couponId: number): Promise<boolean> {
    const prefix = `${this.environment.QUEUE_PREFIX}:reveal`;
    let results: Array<[Error | null, unknown]> | null;
    try {
      results = await countInWindow(this.redis.multi(), `${prefix}:rate:${address}`, 60)
        .set(`${prefix}:once:${address}:${couponId}`, '1', 'EX', REVEAL_LIMITS.countOncePerSeconds, 'NX')
        .exec();
    } catch {
      return false;
    }
    refuseOverLimit(results, 0, REVEAL_LIMITS.perMinute, REVEAL_LIMITS.message);
    return results?.[2]?.[1] === 'OK';
  }
}

export class RevealCoupon extends Command<{ code: string; merchantUrl: string | null }> {
  constructor(
    readonly couponId: number,
    readonly clientAddress: string,
  ) {
    super();
  }
}

@CommandHandler(RevealCoupon)
export class RevealCouponHandler implements ICommandHandler<RevealCoupon> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly limiter: RevealLimiter,
  ) {}

  async execute({ couponId, clientAddress }: RevealCoupon) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const [coupon] = await manager.query(
        `SELECT c.coupon_code, coalesce(c.merchant_url, m.merchant_url) AS merchant_url, c.merchant_id
         ${USABLE_COUPON}`,
        [couponId],
      );
      if (!coupon) throw new NotFoundException({ statusCode: 404, message: OFFER_UNAVAILABLE });
      if (await this.limiter.shouldCount(clientAddress, couponId)) {
        record(new CouponRevealed(String(couponId), { merchantId: coupon.merchant_id }));
      }
      return { code: coupon.coupon_code, merchantUrl: coupon.merchant_url };
    });
  }
}
