import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { COUPON_FORM, COUPON_REVIEW } from '../../rules/coupons.js';
import { Coupon } from '../entities/coupon.entity.js';
import { CouponApproved, CouponRejected } from '../events/coupon-events.js';
import { type CouponRecord, couponRecords } from '../queries/coupon-records.js';
import { HOLD_EXPIRY_SWEEP } from '../queries/coupon-status.js';
import { couponTextsOf } from '../queries/coupon-texts.js';
import { SLOT_FOR_APPROVAL, takeSeat, takeSeats } from '../queries/slot-seats.js';

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

export class ApproveCoupon extends Command<CouponRecord> {
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

  /** Answers the approved coupon's record, read in the same transaction (no second connection). */
  execute({ couponId, slotId }: ApproveCoupon) {
    return this.unitOfWork.run(async (tx) => {
      await approveCoupon(tx, couponId, slotId);
      const [approved] = await couponRecords(tx.manager, [couponId]);
      return approved!;
    });
  }
}

/** ApproveCoupon's work in the caller's transaction (the command's, or the demo seed's). */
export async function approveCoupon(
  { manager, record }: Transaction,
  couponId: number,
  slotId?: number,
): Promise<void> {
  const coupon = await pendingCoupon(manager, couponId);
  const placed = await placeInSlot(manager, coupon, slotId ?? coupon.requestedSlotId);
  if (placed.full) {
    throw new ConflictException({ statusCode: 409, message: COUPON_REVIEW.slotFull(placed.slot.name) });
  }
  record(placed.event);
}

/**
 * Makes a pending coupon (locked by the caller) live in the slot, as an approval does: it takes a
 * seat of the slot and answers the event to record, or `full` (nothing changed) when no seat is
 * free. 400 for a slot that does not exist, 409 for a coupon already past its expiry date.
 */
export async function placeInSlot(
  manager: EntityManager,
  coupon: Coupon,
  slotId: number,
): Promise<{ full: true; slot: { name: string } } | { full: false; event: CouponApproved }> {
  // Held before the clock is read: a running sweep finishes first, and a later one waits for
  // this approval, so no sweep passes this coupon's expiry without seeing it live.
  await manager.query(HOLD_EXPIRY_SWEEP);
  if (coupon.expiryDate && coupon.expiryDate.getTime() <= Date.now()) {
    throw new ConflictException({
      statusCode: 409,
      message: 'This coupon has already passed its expiry date.',
    });
  }
  const [slot]: Array<{ id: number; name: string; capacity: number }> = await manager.query(
    SLOT_FOR_APPROVAL,
    [slotId],
  );
  if (!slot) {
    throw new BadRequestException({
      statusCode: 400,
      message: COUPON_FORM.requestedSlotId.unknown,
      errors: { slotId: [COUPON_FORM.requestedSlotId.unknown] },
    });
  }
  if ((await takeSeat(manager, slot, coupon.id, coupon.expiryDate)) === undefined)
    return { full: true, slot };
  const approvedAt = new Date();
  await manager.query(
    "UPDATE coupons SET status = 'live', slot_id = $2, approved_at = $3, updated_at = $3 WHERE id = $1",
    [coupon.id, slot.id, approvedAt],
  );
  const texts = (await couponTextsOf(manager, [coupon.id])).get(coupon.id) ?? {};
  return {
    full: false,
    event: new CouponApproved(String(coupon.id), {
      merchantId: coupon.merchantId,
      slotId: slot.id,
      title: coupon.title,
      texts,
    }),
  };
}

/**
 * Makes pending coupons of a lot (just added by the caller, in its transaction) live in the slot
 * in their order, as `placeInSlot` does one: seats taken together, then one at a time for those
 * the first pass skipped, until the slot is full (the rest stay pending for review). Answers the
 * events to record, one CouponApproved per coupon placed.
 */
export async function placeLotInSlot(
  manager: EntityManager,
  coupons: ReadonlyArray<{ id: number; merchantId: number; title: string; expiryDate: Date | null }>,
  slotId: number,
): Promise<CouponApproved[]> {
  if (coupons.length === 0) return [];
  await manager.query(HOLD_EXPIRY_SWEEP);
  const [slot]: Array<{ id: number; name: string; capacity: number }> = await manager.query(
    SLOT_FOR_APPROVAL,
    [slotId],
  );
  if (!slot) {
    throw new BadRequestException({
      statusCode: 400,
      message: COUPON_FORM.requestedSlotId.unknown,
      errors: { slotId: [COUPON_FORM.requestedSlotId.unknown] },
    });
  }
  const seated = await takeSeats(
    manager,
    slot,
    coupons.map((coupon) => ({ couponId: coupon.id, until: coupon.expiryDate })),
  );
  for (const coupon of coupons) {
    if (seated.has(coupon.id)) continue;
    if ((await takeSeat(manager, slot, coupon.id, coupon.expiryDate)) === undefined) break;
    seated.add(coupon.id);
  }
  const placed = coupons.filter((coupon) => seated.has(coupon.id));
  if (placed.length === 0) return [];
  const approvedAt = new Date();
  await manager.query(
    "UPDATE coupons SET status = 'live', slot_id = $2, approved_at = $3, updated_at = $3 WHERE id = ANY($1::int[])",
    [placed.map((coupon) => coupon.id), slot.id, approvedAt],
  );
  const texts = await couponTextsOf(
    manager,
    placed.map((coupon) => coupon.id),
  );
  return placed.map(
    (coupon) =>
      new CouponApproved(String(coupon.id), {
        merchantId: coupon.merchantId,
        slotId: slot.id,
        title: coupon.title,
        texts: texts.get(coupon.id) ?? {},
      }),
  );
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
