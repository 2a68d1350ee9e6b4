import { HttpException, HttpStatus, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Redis } from 'ioredis';
import { Environment } from '../../config/environment.js';
import { UnitOfWork } from '../../events/unit-of-work.js';
import { CLIENT_REDIS } from '../../platform/platform.module.js';
import { CouponRevealed } from '../events/coupon-events.js';

export const REVEAL_LIMITS = {
  /** Reveals one address may make in a minute before it is asked to wait. */
  perMinute: 30,
  /** One address's reveals of the same coupon count once in this time. */
  countOncePerSeconds: 600,
  message: 'Too many codes revealed. Please wait a minute and try again.',
} as const;

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
    const minute = Math.floor(Date.now() / 60_000);
    let results: Array<[Error | null, unknown]> | null;
    try {
      results = await this.redis
        .multi()
        .incr(`${prefix}:rate:${address}:${minute}`)
        .expire(`${prefix}:rate:${address}:${minute}`, 60)
        .set(`${prefix}:once:${address}:${couponId}`, '1', 'EX', REVEAL_LIMITS.countOncePerSeconds, 'NX')
        .exec();
    } catch {
      return false;
    }
    if (Number(results?.[0]?.[1]) > REVEAL_LIMITS.perMinute) {
      throw new HttpException(
        { statusCode: 429, message: REVEAL_LIMITS.message },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
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
         FROM coupons c JOIN merchants m ON m.id = c.merchant_id
         WHERE c.id = $1 AND c.status = 'live' AND c.expiry_date > now()
           AND m.is_email_confirmed AND NOT m.store_hidden`,
        [couponId],
      );
      if (!coupon)
        throw new NotFoundException({ statusCode: 404, message: 'This offer is no longer available.' });
      if (await this.limiter.shouldCount(clientAddress, couponId)) {
        record(new CouponRevealed(String(couponId), { merchantId: coupon.merchant_id }));
      }
      return { code: coupon.coupon_code, merchantUrl: coupon.merchant_url };
    });
  }
}
