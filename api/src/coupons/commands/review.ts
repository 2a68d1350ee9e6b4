import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '../../events/unit-of-work.js';
import { COUPON_FORM, COUPON_REVIEW } from '../../rules/coupons.js';
import { Coupon, Slot } from '../entities/coupon.entity.js';
import { CouponApproved, CouponRejected } from '../events/coupon-events.js';

/** Locks the coupon for review; only a pending one can be reviewed. */
async function pendingCoupon(manager: EntityManager, couponId: number): Promise<Coupon> {
  const coupon = await manager.findOne(Coupon, {
    where: { id: couponId },
    lock: { mode: 'pessimistic_write' },
  });
  if (!coupon) throw new NotFoundException({ statusCode: 404, message: 'Coupon not found.' });
  if (coupon.status !== 'pending') {
    throw new ConflictException({ statusCode: 409, message: COUPON_REVIEW.notPending(coupon.status) });
  }
  return coupon;
}

export class ApproveCoupon extends Command<void> {
  constructor(
    readonly couponId: number,
    /** The slot the admin chose; the requested one when left out. */
    readonly slotId?: number,
  ) {
    super();
  }
}

@CommandHandler(ApproveCoupon)
export class ApproveCouponHandler implements ICommandHandler<ApproveCoupon> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ couponId, slotId }: ApproveCoupon) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const coupon = await pendingCoupon(manager, couponId);
      if (coupon.expiryDate.getTime() <= Date.now()) {
        throw new ConflictException({
          statusCode: 409,
          message: 'This coupon has already passed its expiry date.',
        });
      }
      // Locking the slot serialises approvals into it, so its capacity cannot be overrun.
      const slot = await manager.findOne(Slot, {
        where: { id: slotId ?? coupon.requestedSlotId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!slot) {
        throw new BadRequestException({
          statusCode: 400,
          message: COUPON_FORM.requestedSlotId.unknown,
          errors: { slotId: [COUPON_FORM.requestedSlotId.unknown] },
        });
      }
      const [{ live }] = await manager.query(
        "SELECT count(*)::int AS live FROM coupons WHERE slot_id = $1 AND status = 'live' AND expiry_date > now()",
        [slot.id],
      );
      if (live >= slot.capacity)
        throw new ConflictException({ statusCode: 409, message: COUPON_REVIEW.slotFull(slot.name) });
      await manager.update(Coupon, couponId, {
        status: 'live',
        slotId: slot.id,
        approvedAt: new Date(),
        updatedAt: new Date(),
      });
      record(
        new CouponApproved(String(couponId), {
          merchantId: coupon.merchantId,
          slotId: slot.id,
          title: coupon.title,
        }),
      );
    });
  }
}

export class RejectCoupon extends Command<void> {
  constructor(
    readonly couponId: number,
    readonly reason: string,
  ) {
    super();
  }
}

@CommandHandler(RejectCoupon)
export class RejectCouponHandler implements ICommandHandler<RejectCoupon> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ couponId, reason }: RejectCoupon) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const coupon = await pendingCoupon(manager, couponId);
      await manager.update(Coupon, couponId, {
        status: 'rejected',
        rejectionReason: reason,
        updatedAt: new Date(),
      });
      record(
        new CouponRejected(String(couponId), { merchantId: coupon.merchantId, reason, title: coupon.title }),
      );
    });
  }
}
