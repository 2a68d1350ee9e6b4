import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import {
  COUPON_CODE,
  COUPON_FORM,
  COUPON_TEXT_LANGUAGE_NAMES,
  COUPON_TEXT_LANGUAGES,
  COUPON_TEXT_RULES,
  type CouponTexts,
} from '../../rules/coupons.js';
import { Coupon } from '../entities/coupon.entity.js';
import { type CouponApproved, CouponSubmitted } from '../events/coupon-events.js';
import { saveCouponTexts } from '../queries/coupon-texts.js';
import { placeInSlot } from './review.js';

/**
 * A coupon that comes without a merchant's form (an import of a network's feed): unlike a
 * merchant's, it may be a deal without a code, open-ended, and without a percentage or a value.
 */
export interface CouponDraft {
  /** The name the back-office lists it by; its title when left out. */
  couponName?: string;
  /** Null: a deal, used through the store's link alone. */
  code: string | null;
  title: string;
  description: string;
  terms: string | null;
  percentage: number | null;
  discountValue: number | null;
  /** Null: open-ended, live until it is ended otherwise. */
  expiryDate: Date | null;
  exclusive: boolean;
  /** Where "Go to store" leads; the store's own address when null. */
  merchantUrl: string | null;
  categoryIds: number[];
  texts: CouponTexts;
}

/**
 * Adds a coupon of the store `merchantId` for the slot `slotId`. With `publish`, it goes live in
 * that slot at once, as an admin's approval would (the slot's capacity applies: when it is full
 * the coupon waits in the review queue instead); otherwise it waits for review. Records
 * CouponSubmitted, and CouponApproved when it went live. Answers its id and status.
 */
export class AddCoupon extends Command<{ couponId: number; status: 'live' | 'pending' }> {
  constructor(
    readonly merchantId: number,
    readonly slotId: number,
    readonly draft: CouponDraft,
    readonly publish: boolean,
    /**
     * Work of the caller in the same transaction, given the added coupon: an import records the
     * feed row's identity with its coupon, so a restart never adds the coupon twice.
     */
    readonly alongside?: (
      manager: EntityManager,
      added: { couponId: number; status: 'live' | 'pending' },
    ) => Promise<void>,
  ) {
    super();
  }
}

@CommandHandler(AddCoupon)
export class AddCouponHandler implements ICommandHandler<AddCoupon> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ merchantId, slotId, draft, publish, alongside }: AddCoupon) {
    checkDraft(draft);
    return this.unitOfWork.run(async ({ manager, record }) => {
      const categories: Array<{ id: number }> = await manager.query(
        'SELECT id FROM categories WHERE id = ANY($1::int[])',
        [draft.categoryIds],
      );
      if (categories.length !== new Set(draft.categoryIds).size) {
        refuse({ categoryIds: [COUPON_FORM.categoryIds.unknown] });
      }
      const coupon = await manager.getRepository(Coupon).save(
        manager.getRepository(Coupon).create({
          merchantId,
          couponName: draft.couponName ?? draft.title,
          couponCode: draft.code,
          title: draft.title,
          description: draft.description,
          termsAndConditions: draft.terms ?? '',
          percentage: draft.percentage,
          discountValue: draft.discountValue,
          expiryDate: draft.expiryDate,
          exclusive: draft.exclusive,
          requestedSlotId: slotId,
          merchantUrl: draft.merchantUrl,
          status: 'pending',
        }),
      );
      await manager.query(
        'INSERT INTO coupon_categories (coupon_id, category_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
        [coupon.id, draft.categoryIds],
      );
      await saveCouponTexts(manager, coupon.id, draft.texts);
      record(
        new CouponSubmitted(String(coupon.id), {
          merchantId,
          title: coupon.title,
          requestedSlotId: slotId,
          texts: draft.texts,
          hasCode: draft.code !== null,
          exclusive: draft.exclusive,
          expiryDate: draft.expiryDate?.toISOString() ?? null,
        }),
      );
      const added = await this.place(manager, coupon, slotId, publish, record);
      await alongside?.(manager, added);
      return added;
    });
  }

  private async place(
    manager: EntityManager,
    coupon: Coupon,
    slotId: number,
    publish: boolean,
    record: (event: CouponApproved) => void,
  ): Promise<{ couponId: number; status: 'live' | 'pending' }> {
    if (!publish) return { couponId: coupon.id, status: 'pending' };
    const placed = await placeInSlot(manager, coupon, slotId);
    if (placed.full) return { couponId: coupon.id, status: 'pending' };
    record(placed.event);
    return { couponId: coupon.id, status: 'live' };
  }
}

function refuse(errors: Record<string, string[]>): never {
  throw new BadRequestException({
    statusCode: 400,
    message: 'Please fill all required fields correctly.',
    errors,
  });
}

/** The rules a merchant's coupon keeps whatever its source: the code's shape, the texts' limits, values in range. */
export function checkDraft(draft: CouponDraft): void {
  const F = COUPON_FORM;
  const errors: Record<string, string[]> = {};
  if (draft.code !== null && !COUPON_CODE.test(draft.code)) errors.code = [F.couponCode.invalid];
  if (!draft.title.trim()) errors.title = [F.title.required];
  else if (draft.title.length > F.title.maxLength) errors.title = [F.title.tooLong];
  if (!draft.description.trim()) errors.description = [F.description.required];
  else if (draft.description.length > F.description.maxLength) errors.description = [F.description.tooLong];
  if (
    draft.percentage !== null &&
    !(
      Number.isInteger(draft.percentage) &&
      draft.percentage >= F.percentage.min &&
      draft.percentage <= F.percentage.max
    )
  )
    errors.percentage = [F.percentage.invalid];
  if (
    draft.discountValue !== null &&
    !(Number.isInteger(draft.discountValue) && draft.discountValue >= F.discountValue.min)
  )
    errors.discountValue = [F.discountValue.invalid];
  if (draft.expiryDate !== null && !(draft.expiryDate.getTime() > Date.now()))
    errors.expiryDate = [F.expiryDate.past];
  for (const language of COUPON_TEXT_LANGUAGES) {
    const text = draft.texts[language];
    if (!text) continue;
    const name = COUPON_TEXT_LANGUAGE_NAMES[language];
    if (!text.title.trim()) errors[`texts.${language}.title`] = [COUPON_TEXT_RULES.titleRequired(name)];
    else if (text.title.length > F.title.maxLength)
      errors[`texts.${language}.title`] = [COUPON_TEXT_RULES.titleTooLong(name)];
    if (!text.description.trim())
      errors[`texts.${language}.description`] = [COUPON_TEXT_RULES.descriptionRequired(name)];
    else if (text.description.length > F.description.maxLength)
      errors[`texts.${language}.description`] = [COUPON_TEXT_RULES.descriptionTooLong(name)];
  }
  if (Object.keys(errors).length > 0) refuse(errors);
}
