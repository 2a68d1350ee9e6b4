import { BadRequestException, ConflictException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { MerchantScope } from '../../identity/merchant-scope.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { storeImage } from '../../media/media.js';
import {
  COUPON_FORM,
  COUPON_REVIEW,
  COUPON_TEXT_FIELDS,
  COUPON_TEXT_LANGUAGE_NAMES,
  COUPON_TEXT_LANGUAGES,
  COUPON_TEXT_RULES,
  type CouponTexts,
} from '../../rules/coupons.js';
import type { CouponChangesDto, CouponFormDto, CouponTextFieldsDto } from '../dto/coupon-form.dto.js';
import { Coupon } from '../entities/coupon.entity.js';
import { CouponSubmitted, CouponUpdated, CouponWithdrawn } from '../events/coupon-events.js';
import { couponStatus, HOLD_EXPIRY_SWEEP } from '../queries/coupon-status.js';
import { type CouponTextChanges, couponTextsOf, saveCouponTexts } from '../queries/coupon-texts.js';
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

type TextField = keyof CouponTextFieldsDto;
const TEXT_FIELDS = COUPON_TEXT_LANGUAGES.flatMap((language) =>
  Object.values(COUPON_TEXT_FIELDS[language]),
) as TextField[];

/** The form without its texts in other languages, and those texts' fields apart. */
function splitTexts<F extends CouponTextFieldsDto>(form: F) {
  const rest = { ...form };
  const texts: Partial<Record<TextField, string | null>> = {};
  for (const field of TEXT_FIELDS) {
    if (field in rest) texts[field] = rest[field];
    delete rest[field];
  }
  return { rest: rest as Omit<F, TextField>, texts };
}

/**
 * What a form's text fields change of the texts the coupon has (`stored`), and its texts after.
 * A language's text is a title with a description (terms optional); giving one without the other
 * is a 400 naming the missing field, and emptying both removes the language.
 */
function textChanges(
  fields: Partial<Record<TextField, string | null>>,
  stored: CouponTexts = {},
): { changes: CouponTextChanges; texts: CouponTexts } {
  const changes: CouponTextChanges = {};
  const texts: CouponTexts = { ...stored };
  const errors: Record<string, string[]> = {};
  for (const language of COUPON_TEXT_LANGUAGES) {
    const names = COUPON_TEXT_FIELDS[language];
    if (
      fields[names.title] === undefined &&
      fields[names.description] === undefined &&
      fields[names.terms] === undefined
    )
      continue;
    const merged = (field: TextField, kept: string | null | undefined) =>
      (fields[field] === undefined ? kept : fields[field]) || null;
    const title = merged(names.title, stored[language]?.title);
    const description = merged(names.description, stored[language]?.description);
    const terms = merged(names.terms, stored[language]?.terms);
    const name = COUPON_TEXT_LANGUAGE_NAMES[language];
    if (!title && !description && !terms) {
      if (stored[language]) changes[language] = null;
      delete texts[language];
    } else if (!title) errors[names.title] = [COUPON_TEXT_RULES.titleRequired(name)];
    else if (!description) errors[names.description] = [COUPON_TEXT_RULES.descriptionRequired(name)];
    else texts[language] = changes[language] = { title, description, terms };
  }
  if (Object.keys(errors).length > 0) {
    throw new BadRequestException({
      statusCode: 400,
      message: 'Please fill all required fields correctly.',
      errors,
    });
  }
  return { changes, texts };
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

  execute(command: SubmitCoupon) {
    return this.unitOfWork.run((tx) => submitCoupon(tx, command));
  }
}

/** SubmitCoupon's work in the caller's transaction (the command's, or the demo seed's). */
export async function submitCoupon(
  { manager, record }: Transaction,
  { merchantId, form, adPost }: SubmitCoupon,
): Promise<{ couponId: number }> {
  await checkReferences(manager, form.requestedSlotId, form.categoryIds);
  const { rest, texts: textFields } = splitTexts(form);
  const { changes, texts } = textChanges(textFields);
  const { categoryIds, ...fields } = rest;
  const adImageId = adPost ? await storeImage(manager, adPost, 'adPost') : null;
  const coupon = await new MerchantScope(manager.getRepository(Coupon), merchantId).create({
    ...fields,
    merchantUrl: fields.merchantUrl ?? null,
    adImageId,
    status: 'pending',
  });
  await setCategories(manager, coupon.id, categoryIds);
  await saveCouponTexts(manager, coupon.id, changes);
  record(
    new CouponSubmitted(String(coupon.id), {
      merchantId,
      title: coupon.title,
      requestedSlotId: coupon.requestedSlotId,
      texts,
      hasCode: true,
      exclusive: false,
      expiryDate: coupon.expiryDate?.toISOString() ?? null,
    }),
  );
  return { couponId: coupon.id };
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
      const { rest, texts: textFields } = splitTexts(changes);
      const stored = (await couponTextsOf(manager, [couponId])).get(couponId);
      const { changes: textChangesMade, texts } = textChanges(textFields, stored);
      const { categoryIds, ...fields } = rest;
      const adImageId = adPost ? await storeImage(manager, adPost, 'adPost') : undefined;
      await coupons.update(couponId, { ...fields, ...(adImageId && { adImageId }), updatedAt: new Date() });
      if (categoryIds) await setCategories(manager, couponId, categoryIds);
      await saveCouponTexts(manager, couponId, textChangesMade);
      record(new CouponUpdated(String(couponId), { merchantId, texts }));
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
