import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../events/unit-of-work.js';
import { CouponExpired } from '../events/coupon-events.js';
import { FREE_SEATS } from '../queries/slot-seats.js';

/**
 * Ends up to `batchSize` live coupons whose expiry has passed, one event each. Read through the
 * partial index on live coupons' expiry, so the cost follows the coupons due. A coupon already
 * ended is not touched again. Returns how many it expired.
 */
export class ExpireDueCoupons extends Command<number> {
  constructor(readonly batchSize = 1000) {
    super();
  }
}

@CommandHandler(ExpireDueCoupons)
export class ExpireDueCouponsHandler implements ICommandHandler<ExpireDueCoupons> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ batchSize }: ExpireDueCoupons) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      // TypeORM answers an UPDATE ... RETURNING with [rows, affected].
      const [expired]: [Array<{ id: number; merchant_id: number }>, number] = await manager.query(
        `UPDATE coupons SET status = 'expired', ended_at = now(), updated_at = now()
         WHERE id = ANY (ARRAY(
           SELECT id FROM coupons WHERE status = 'live' AND expiry_date <= now()
           ORDER BY expiry_date LIMIT $1 FOR UPDATE SKIP LOCKED))
         RETURNING id, merchant_id`,
        [batchSize],
      );
      // Their seats were free from the expiry on; now they are empty too.
      if (expired.length > 0) await manager.query(FREE_SEATS, [expired.map((coupon) => coupon.id)]);
      for (const coupon of expired)
        record(new CouponExpired(String(coupon.id), { merchantId: coupon.merchant_id }));
      return expired.length;
    });
  }
}
