import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { COUPON_FORM } from '../../rules/coupons.js';
import { CouponSubmitted } from '../events/coupon-events.js';
import { saveCouponTexts } from '../queries/coupon-texts.js';
import { lockStores, repeatingDrafts } from '../queries/duplicates.js';
import { type CouponDraft, checkDraft } from './addition.js';
import { endCoupons, reviseCoupon } from './feed-changes.js';
import { placeLotInSlot } from './review.js';

/** What became of a coupon of a lot to add: added (live or pending), a duplicate, or refused. */
export type LotAddition =
  | { couponId: number; status: 'live' | 'pending' }
  | { duplicate: true }
  | { refused: BadRequestException };
/** What became of a coupon of a lot to revise: its status, or refused (its draft breaks a rule). */
export type LotRevision = { status: string } | { refused: BadRequestException };

export interface CouponLotResult {
  /** In the order of the lot's `added`. */
  added: LotAddition[];
  /** In the order of the lot's `revised`. */
  revised: LotRevision[];
  /** The coupons of `ended` that were live or pending and are ended now. */
  ended: number[];
}

export interface CouponLot {
  /** The slot new coupons go live in with `publish` (as AddCoupon), else they wait for review. */
  slotId: number;
  publish: boolean;
  added: ReadonlyArray<{ merchantId: number; draft: CouponDraft }>;
  revised: ReadonlyArray<{
    couponId: number;
    draft: CouponDraft;
    comeBack: { slotId: number; publish: boolean } | null;
  }>;
  ended: readonly number[];
}

/**
 * A lot of coupons that come without a form (a feed's rows), added, revised and ended in one
 * transaction: each as AddCoupon, ReviseCoupon and EndCoupons would, with the same events, one
 * per coupon (CouponSubmitted and CouponApproved, CouponRevised, CouponEnded), so every consumer
 * and read model applies a lot as it would the single commands. One commit and set-based writes
 * for the lot instead of a transaction per coupon. A coupon whose draft breaks a rule is refused
 * alone; a duplicate (of the store's coupons, or of one earlier in the lot) is not added. The
 * caller's `alongside` runs in the transaction with the results.
 */
export class ApplyCouponLot extends Command<CouponLotResult> {
  constructor(
    readonly lot: CouponLot,
    readonly alongside?: (manager: EntityManager, result: CouponLotResult) => Promise<void>,
  ) {
    super();
  }
}

/** The refusal of a draft that breaks a rule, or null. */
function refusalOf(draft: CouponDraft): BadRequestException | null {
  try {
    checkDraft(draft);
    return null;
  } catch (error) {
    if (error instanceof BadRequestException) return error;
    throw error;
  }
}

@CommandHandler(ApplyCouponLot)
export class ApplyCouponLotHandler implements ICommandHandler<ApplyCouponLot> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ lot, alongside }: ApplyCouponLot) {
    const addRefusals = lot.added.map((item) => refusalOf(item.draft));
    const reviseRefusals = lot.revised.map((item) => refusalOf(item.draft));
    return this.unitOfWork.run(async (tx) => {
      const { manager, record } = tx;
      const added: LotAddition[] = addRefusals.map((refused) =>
        refused ? { refused } : { couponId: 0, status: 'pending' },
      );
      const categoryIds = [...new Set(lot.added.flatMap((item) => item.draft.categoryIds))];
      if (categoryIds.length > 0) {
        const known = new Set(
          (
            (await manager.query('SELECT id FROM categories WHERE id = ANY($1::int[])', [
              categoryIds,
            ])) as Array<{
              id: number;
            }>
          ).map((row) => row.id),
        );
        lot.added.forEach((item, at) => {
          if (added[at] && !('refused' in added[at]) && item.draft.categoryIds.some((id) => !known.has(id))) {
            added[at] = {
              refused: new BadRequestException({
                statusCode: 400,
                message: 'Please fill all required fields correctly.',
                errors: { categoryIds: [COUPON_FORM.categoryIds.unknown] },
              }),
            };
          }
        });
      }
      const candidates = lot.added
        .map((item, at) => ({ ...item, at }))
        .filter(({ at }) => !('refused' in added[at]!));
      if (candidates.length > 0) {
        await lockStores(
          manager,
          candidates.map((item) => item.merchantId),
        );
        const repeats = await repeatingDrafts(
          manager,
          candidates.map(({ merchantId, draft }) => ({ merchantId, code: draft.code, title: draft.title })),
        );
        const adding = candidates.filter((_, position) => !repeats.has(position));
        for (const [position, item] of candidates.entries()) {
          if (repeats.has(position)) added[item.at] = { duplicate: true };
        }
        const ids = await insertCoupons(manager, lot.slotId, adding);
        await manager.query(
          `INSERT INTO coupon_categories (coupon_id, category_id)
           SELECT coupon_id, category_id FROM unnest($1::int[], $2::int[]) AS c (coupon_id, category_id)
           ON CONFLICT DO NOTHING`,
          [
            adding.flatMap((item, at) => item.draft.categoryIds.map(() => ids[at]!)),
            adding.flatMap((item) => item.draft.categoryIds),
          ],
        );
        for (const [at, item] of adding.entries()) {
          if (Object.keys(item.draft.texts).length > 0)
            await saveCouponTexts(manager, ids[at]!, item.draft.texts);
          const { draft, merchantId } = item;
          record(
            new CouponSubmitted(String(ids[at]), {
              merchantId,
              title: draft.title,
              requestedSlotId: lot.slotId,
              texts: draft.texts,
              hasCode: draft.code !== null,
              exclusive: draft.exclusive,
              expiryDate: draft.expiryDate?.toISOString() ?? null,
            }),
          );
          added[item.at] = { couponId: ids[at]!, status: 'pending' };
        }
        if (lot.publish) {
          const approved = await placeLotInSlot(
            manager,
            adding.map((item, at) => ({
              id: ids[at]!,
              merchantId: item.merchantId,
              title: item.draft.title,
              expiryDate: item.draft.expiryDate,
            })),
            lot.slotId,
          );
          const live = new Set(approved.map((event) => Number(event.aggregateId)));
          record(...approved);
          for (const item of adding) {
            const result = added[item.at]!;
            if ('couponId' in result && live.has(result.couponId)) result.status = 'live';
          }
        }
      }
      const revised: LotRevision[] = [];
      for (const [at, item] of lot.revised.entries()) {
        const refused = reviseRefusals[at];
        revised.push(
          refused ? { refused } : await reviseCoupon(tx, item.couponId, item.draft, item.comeBack),
        );
      }
      const ended = await endCoupons(tx, lot.ended);
      const result = { added, revised, ended };
      await alongside?.(manager, result);
      return result;
    });
  }
}

/**
 * Inserts the coupons in one statement, pending for `slotId`, and answers their ids in order:
 * taken from the coupons' sequence first, so each id is known to be its draft's.
 */
async function insertCoupons(
  manager: EntityManager,
  slotId: number,
  items: ReadonlyArray<{ merchantId: number; draft: CouponDraft }>,
): Promise<number[]> {
  if (items.length === 0) return [];
  const ids: number[] = (
    (await manager.query(
      "SELECT nextval(pg_get_serial_sequence('coupons', 'id'))::int AS id FROM generate_series(1, $1)",
      [items.length],
    )) as Array<{ id: number }>
  ).map((row) => row.id);
  const column = <T>(pick: (draft: CouponDraft, merchantId: number) => T) =>
    items.map((item) => pick(item.draft, item.merchantId));
  await manager.query(
    `INSERT INTO coupons (id, merchant_id, coupon_name, coupon_code, title, description, terms_and_conditions,
                          percentage, discount_value, expiry_date, exclusive, requested_slot_id, merchant_url, status)
     OVERRIDING SYSTEM VALUE
     SELECT id, merchant_id, coupon_name, coupon_code, title, description, terms, percentage, discount_value,
            expiry_date, exclusive, $12, merchant_url, 'pending'
     FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
                 $9::int[], $10::timestamptz[], $11::boolean[], $13::text[])
          AS c (id, merchant_id, coupon_name, coupon_code, title, description, terms, percentage, discount_value,
                expiry_date, exclusive, merchant_url)`,
    [
      ids,
      column((_, merchantId) => merchantId),
      column((draft) => draft.couponName ?? draft.title),
      column((draft) => draft.code),
      column((draft) => draft.title),
      column((draft) => draft.description),
      column((draft) => draft.terms ?? ''),
      column((draft) => draft.percentage),
      column((draft) => draft.discountValue),
      column((draft) => draft.expiryDate),
      column((draft) => draft.exclusive),
      slotId,
      column((draft) => draft.merchantUrl),
    ],
  );
  return ids;
}
