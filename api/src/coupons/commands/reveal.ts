import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Redis } from 'ioredis';
import { Environment } from '../../infrastructure/config/environment.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { addressDigest } from '../../infrastructure/http/client-address.js';
import { CLIENT_REDIS } from '../../infrastructure/platform/platform.module.js';
import { OFFER_UNAVAILABLE, REVEAL_LIMITS } from '../../rules/coupons.js';
import { CouponRevealed } from '../events/coupon-events.js';
import { usableCoupon } from '../queries/coupon-records.js';

/**
 * Decides whether a reveal counts towards popularity: one address's reveals of one coupon count
 * once in a while (the rate of reveals is limited before the request gets here, see RATE_LIMITS).
 * Kept in Redis, shared by every API process. Without Redis the code is still revealed, but the
 * click is not counted.
 */
@Injectable()
export class RevealLimiter {
  constructor(
    @Inject(CLIENT_REDIS) private readonly redis: Redis,
    private readonly environment: Environment,
  ) {}

  async shouldCount(address: string, couponId: number): Promise<boolean> {
    const key = `${this.environment.QUEUE_PREFIX}:reveal:once:${addressDigest(this.environment.SESSION_SECRET, address)}:${couponId}`;
    try {
      return (await this.redis.set(key, '1', 'EX', REVEAL_LIMITS.countOncePerSeconds, 'NX')) === 'OK';
    } catch {
      return false;
    }
  }
}

/** The code (null for a deal, used through the store's link alone) and where to use it. */
export class RevealCoupon extends Command<{ code: string | null; merchantUrl: string | null }> {
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
      const coupon = await usableCoupon(manager, couponId);
      if (!coupon) throw new NotFoundException({ statusCode: 404, message: OFFER_UNAVAILABLE });
      if (await this.limiter.shouldCount(clientAddress, couponId)) {
        record(new CouponRevealed(String(couponId), { merchantId: coupon.merchantId }));
      }
      return { code: coupon.couponCode, merchantUrl: coupon.url };
    });
  }
}
