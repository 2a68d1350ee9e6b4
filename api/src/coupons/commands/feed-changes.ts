import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { Coupon } from '../entities/coupon.entity.js';
import { CouponEnded, CouponRevised } from '../events/coupon-events.js';
import { saveCouponTexts } from '../queries/coupon-texts.js';
import { FREE_SEATS } from '../queries/slot-seats.js';
import { type CouponDraft, checkDraft } from './addition.js';
import { placeInSlot } from './review.js';

/** Work of the caller in the command's transaction (an import records the row's outcome with it). */
type Alongside<T> = (manager: EntityManager, result: T) => Promise<void>;

/**
 * Changes a coupon added without a form (a feed's) to what its source now says: code, texts in
 * every language, dates, exclusive flag, link and categories. A coupon its source had ended comes
 * back: it is placed in `slotId` again with `publish` (as AddCoupon would), or waits for review.
 * Records CouponRevised (and CouponApproved when it went live again). Answers its status.
 */
export class ReviseCoupon extends Command<{ status: string }> {
  constructor(
    readonly couponId: number,
    readonly draft: CouponDraft,
    readonly comeBack: { slotId: number; publish: boolean } | null,
    readonly alongside?: Alongside<{ status: string }>,
  ) {
    super();
  }
}

@CommandHandler(ReviseCoupon)
export class ReviseCouponHandler implements ICommandHandler<ReviseCoupon> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ couponId, draft, comeBack, alongside }: ReviseCoupon) {
    checkDraft(draft);
    return this.unitOfWork.run(async (tx) => {
      const revised = await reviseCoupon(tx, couponId, draft, comeBack);
      await alongside?.(tx.manager, revised);
      return revised;
    });
  }
}

/** ReviseCoupon's change inside the caller's transaction (a lot of an import revises many in one). */
export async function reviseCoupon(
  { manager, record }: Transaction,
  couponId: number,
  draft: CouponDraft,
  comeBack: { slotId: number; publish: boolean } | null,
): Promise<{ status: string }> {
  const coupons = manager.getRepository(Coupon);
  const coupon = await coupons.findOne({ where: { id: couponId }, lock: { mode: 'pessimistic_write' } });
  if (!coupon) throw new Error(`coupon ${couponId} does not exist`);
  Object.assign(coupon, {
    couponName: draft.couponName ?? draft.title,
    couponCode: draft.code,
    title: draft.title,
    description: draft.description,
    termsAndConditions: draft.terms ?? '',
    percentage: draft.percentage,
    discountValue: draft.discountValue,
    expiryDate: draft.expiryDate,
    exclusive: draft.exclusive,
    merchantUrl: draft.merchantUrl,
    updatedAt: new Date(),
  });
  // A coupon its merchant withdrew (hid) stays hidden: only one its source ended comes back.
  const ended = coupon.status === 'expired';
  if (comeBack && ended) {
    Object.assign(coupon, { status: 'pending', slotId: null, approvedAt: null, endedAt: null });
  }
  await coupons.save(coupon);
  // A live coupon's seat is held until its expiry: the seat follows a changed one.
  if (coupon.status === 'live') {
    await manager.query(
      "UPDATE slot_seats SET until = coalesce($2::timestamptz, 'infinity') WHERE coupon_id = $1",
      [couponId, draft.expiryDate],
    );
  }
  await manager.query('DELETE FROM coupon_categories WHERE coupon_id = $1', [couponId]);
  await manager.query(
    'INSERT INTO coupon_categories (coupon_id, category_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
    [couponId, draft.categoryIds],
  );
  await saveCouponTexts(manager, couponId, { hi: draft.texts.hi ?? null, te: draft.texts.te ?? null });
  record(
    new CouponRevised(String(couponId), {
      merchantId: coupon.merchantId,
      texts: draft.texts,
      exclusive: draft.exclusive,
    }),
  );
  let status: string = coupon.status;
  if (comeBack && ended && comeBack.publish) {
    const placed = await placeInSlot(manager, coupon, comeBack.slotId);
    if (!placed.full) {
      record(placed.event);
      status = 'live';
    }
  }
  return { status };
}

/**
 * Ends coupons their source ended (a feed row says expired or suspended, or a full feed left them
 * out): live or pending ones leave the lists and the review queue as expired, their seats freed,
 * one CouponEnded each. Coupons already over are left as they are. Answers the ids it ended.
 */
export class EndCoupons extends Command<number[]> {
  constructor(
    readonly couponIds: readonly number[],
    readonly alongside?: Alongside<number[]>,
  ) {
    super();
  }
}

@CommandHandler(EndCoupons)
export class EndCouponsHandler implements ICommandHandler<EndCoupons> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ couponIds, alongside }: EndCoupons) {
    return this.unitOfWork.run(async (tx) => {
      const ids = await endCoupons(tx, couponIds);
      await alongside?.(tx.manager, ids);
      return ids;
    });
  }
}

/** EndCoupons' change inside the caller's transaction; answers the ids it ended. */
export async function endCoupons({ manager, record }: Transaction, couponIds: readonly number[]) {
  if (couponIds.length === 0) return [];
  const ended: Array<{ id: number; merchantId: number }> = await manager.query(
    `WITH ended AS (
       UPDATE coupons SET status = 'expired', ended_at = now(), updated_at = now()
       WHERE id = ANY($1::int[]) AND status IN ('live', 'pending')
       RETURNING id, merchant_id AS "merchantId")
     SELECT * FROM ended ORDER BY id`,
    [couponIds],
  );
  const ids = ended.map((coupon) => coupon.id);
  await manager.query(FREE_SEATS, [ids]);
  for (const coupon of ended) record(new CouponEnded(String(coupon.id), { merchantId: coupon.merchantId }));
  return ids;
}

/**
 * Ends every live or pending coupon of a merchant whose account is erased, inside the erasure's
 * transaction, as EndCoupons does (one CouponEnded each). Answers the ids it ended.
 */
export async function endCouponsOfMerchant(tx: Transaction, merchantId: number): Promise<number[]> {
  const rows: Array<{ id: number }> = await tx.manager.query(
    "SELECT id FROM coupons WHERE merchant_id = $1 AND status IN ('live', 'pending') ORDER BY id",
    [merchantId],
  );
  return endCoupons(
    tx,
    rows.map((row) => row.id),
  );
}
