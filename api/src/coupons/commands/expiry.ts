import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { CouponExpired } from '../events/coupon-events.js';
import { DUE_COUPONS, LOCK_EXPIRY_SWEEP, MARK_EXPIRY_SWEEP } from '../queries/expiry-sweep.js';
import { FREE_SEATS } from '../queries/slot-seats.js';

/**
 * Announces up to `batchSize` live coupons whose expiry date has passed, one event each, in
 * expiry order. A coupon ends at its expiry date by the clock (coupons/queries/coupon-status.ts),
 * so the sweep changes no coupon row: it reads the due coupons from an index, moves its mark past
 * them and frees their seats. Each coupon is announced once. Returns how many it announced.
 */
export class ExpireDueCoupons extends Command<number> {
  constructor(readonly batchSize = 1000) {
    super();
  }
}

interface DueCoupon {
  id: number;
  merchantId: number;
  expiryDate: string;
}

@CommandHandler(ExpireDueCoupons)
export class ExpireDueCouponsHandler implements ICommandHandler<ExpireDueCoupons> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ batchSize }: ExpireDueCoupons) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      // Its own statement, so that the next one reads what the approvals and withdrawals it waited
      // for have committed.
      const [{ throughExpiry, throughId }] = await manager.query(LOCK_EXPIRY_SWEEP);
      const due: DueCoupon[] = await manager.query(DUE_COUPONS, [throughExpiry, throughId, batchSize]);
      const last = due.at(-1);
      if (!last) return 0;
      await manager.query(MARK_EXPIRY_SWEEP, [last.expiryDate, last.id]);
      // Their seats were free from the expiry on; now they are empty too.
      await manager.query(FREE_SEATS, [due.map((coupon) => coupon.id)]);
      for (const coupon of due)
        record(new CouponExpired(String(coupon.id), { merchantId: coupon.merchantId }));
      return due.length;
    });
  }
}
