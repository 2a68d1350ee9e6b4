import { BadRequestException, ConflictException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '../../events/unit-of-work.js';
import { MerchantScope } from '../../identity/merchant-scope.js';
import { storeImage } from '../../media/media.js';
import { COUPON_FORM, COUPON_REVIEW } from '../../rules/coupons.js';
import type { CouponChangesDto, CouponFormDto } from '../dto/coupon-form.dto.js';
import { Coupon } from '../entities/coupon.entity.js';
import { CouponSubmitted, CouponUpdated, CouponWithdrawn } from '../events/coupon-events.js';
import { couponStatus, HOLD_EXPIRY_SWEEP } from '../queries/coupon-status.js';
import { FREE_SEATS } from '../queries/slot-seats.js';

/** Checks that the slot and categories named exist; 400 on the field otherwise. */
async function checkReferences(manager: EntityManager, slotId?: number, categoryIds?: number[]) {
  const errors: Record<string, string[]> = {};
  if (slotId !== undefined) {
    const found = await manager.query('SELECT 1 FROM slots WHERE id = $1', [slotId]);
    if (found.length === 0) errors.requestedSlotId = [COUPON_FORM.requestedSlotId.unknown];
  }
  if (categoryIds !== undefined) {
    const found = await manager.query('SELECT count(*)::int AS n FROM categories WHERE id = ANY($1::int[])', [
      [...new Set(categoryIds)],
    ]);
    if (found[0].n !== new Set(categoryIds).size) errors.categoryIds = [COUPON_FORM.categoryIds.unknown];
  }
  if (Object.keys(errors).length > 0) {
    throw new BadRequestException({
      statusCode: 400,
      message: 'Please fill all required fields correctly.',
      errors,
    });
  }
}

async function setCategories(manager: EntityManager, couponId: number, categoryIds: number[]) {
  await manager.query('DELETE FROM coupon_categories WHERE coupon_id = $1', [couponId]);
  await manager.query(
    'INSERT INTO coupon_categories (coupon_id, category_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
    [couponId, categoryIds],
  );
}

export class SubmitCoupon extends Command<{ couponId: number }> {
  constructor(
    readonly merchantId: number,
    readonly form: CouponFormDto,
    readonly adPost?: Buffer,
  ) {
    super();
  }
}

@CommandHandler(SubmitCoupon)
export class SubmitCouponHandler implements ICommandHandler<SubmitCoupon> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ merchantId, form, adPost }: SubmitCoupon) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      await checkReferences(manager, form.requestedSlotId, form.categoryIds);
      const { categoryIds, ...fields } = form;
      const adImageId = adPost ? await storeImage(manager, adPost, 'adPost') : null;
      const coupon = await new MerchantScope(manager.getRepository(Coupon), merchantId).create({
        ...fields,
        merchantUrl: fields.merchantUrl ?? null,
        adImageId,
        status: 'pending',
      });
      await setCategories(manager, coupon.id, categoryIds);
      record(
        new CouponSubmitted(String(coupon.id), {
          merchantId,
          title: coupon.title,
          requestedSlotId: coupon.requestedSlotId,
        }),
      );
      return { couponId: coupon.id };
    });
  }
}

export class UpdateCoupon extends Command<void> {
  constructor(
    readonly merchantId: number,
    readonly couponId: number,
    readonly changes: CouponChangesDto,
    readonly adPost?: Buffer,
  ) {
    super();
  }
}

@CommandHandler(UpdateCoupon)
export class UpdateCouponHandler implements ICommandHandler<UpdateCoupon> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ merchantId, couponId, changes, adPost }: UpdateCoupon) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const coupons = new MerchantScope(manager.getRepository(Coupon), merchantId);
      const coupon = await coupons.get(couponId);
      if (coupon.status !== 'pending') {
        throw new ConflictException({ statusCode: 409, message: COUPON_REVIEW.notEditable(coupon.status) });
      }
      await checkReferences(manager, changes.requestedSlotId, changes.categoryIds);
      const { categoryIds, ...fields } = changes;
      const adImageId = adPost ? await storeImage(manager, adPost, 'adPost') : undefined;
      await coupons.update(couponId, { ...fields, ...(adImageId && { adImageId }), updatedAt: new Date() });
      if (categoryIds) await setCategories(manager, couponId, categoryIds);
      record(new CouponUpdated(String(couponId), { merchantId }));
    });
  }
}

/** Takes a coupon off the site: a pending one never goes live, a live one ends early. */
export class WithdrawCoupon extends Command<void> {
  constructor(
    readonly merchantId: number,
    readonly couponId: number,
  ) {
    super();
  }
}

@CommandHandler(WithdrawCoupon)
export class WithdrawCouponHandler implements ICommandHandler<WithdrawCoupon> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ merchantId, couponId }: WithdrawCoupon) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      await manager.query(HOLD_EXPIRY_SWEEP);
      const coupons = new MerchantScope(manager.getRepository(Coupon), merchantId);
      const status = couponStatus(await coupons.get(couponId));
      if (status !== 'pending' && status !== 'live') {
        throw new ConflictException({
          statusCode: 409,
          message: COUPON_REVIEW.notWithdrawable(status),
        });
      }
      await coupons.update(couponId, { status: 'withdrawn', endedAt: new Date(), updatedAt: new Date() });
      if (status === 'live') await manager.query(FREE_SEATS, [[couponId]]);
      record(new CouponWithdrawn(String(couponId), { merchantId, wasLive: status === 'live' }));
    });
  }
}
