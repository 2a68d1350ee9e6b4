import { randomBytes } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { findClick } from '../../clicks/queries/clicks.js';
import { Environment } from '../../config/environment.js';
import { DomainEvent } from '../../events/domain-event.js';
import { UnitOfWork } from '../../events/unit-of-work.js';
import { normaliseReferralCode } from '../../identity/referral-codes.js';
import { lockedBalanceOf } from '../../payouts/queries/payouts.js';
import { type CashbackState, EARNINGS, POSTBACK } from '../../rules/engagement.js';
import { rupeesToPaise } from '../../rules/money.js';
import { PAYOUT } from '../../rules/payouts.js';
import type { PurchasePostbackDto } from '../dto/earnings.dto.js';
import {
  CashbackConfirmed,
  EarningCancelled,
  EarningPaid,
  PostbackSecretRotated,
  PurchaseRecorded,
} from '../events/earnings-events.js';
import { cashbackPaise, percentToBasisPoints } from '../money.js';
import { COUPON_LIVE_AT } from '../queries/purchases.js';

const fieldError = (field: string, message: string) =>
  new BadRequestException({ statusCode: 400, message, errors: { [field]: [message] } });

/** A few minutes of clock difference between the merchant's server and ours are allowed. */
const CLOCK_SKEW_MS = 5 * 60_000;

const unprocessable = (message: string) => new UnprocessableEntityException({ statusCode: 422, message });

/**
 * The shopper and coupon of a purchase reported with a click id: the click's, within the
 * merchant's cookie window after it. The coupon was live when the shopper clicked out (only a
 * live coupon gives a click); it may have ended since, as the store's own tracking allows.
 */
async function attributedToClick(
  manager: EntityManager,
  merchantId: number,
  purchase: PurchasePostbackDto,
  purchasedAt: Date,
): Promise<{ userId: number; couponId: number; clickId: string }> {
  const click = await findClick(manager, purchase.clickId);
  // The controller found the click and checked the signature with its merchant's secret.
  if (!click || click.merchantId !== merchantId) {
    throw new NotFoundException({ statusCode: 404, message: POSTBACK.unknownClick });
  }
  if (purchase.couponId !== undefined && purchase.couponId !== click.couponId) {
    throw fieldError('couponId', POSTBACK.clickCouponMismatch);
  }
  if (click.userId === null) throw unprocessable(POSTBACK.anonymousClick);
  const sinceClickMs = purchasedAt.getTime() - click.clickedAt.getTime();
  if (sinceClickMs < -CLOCK_SKEW_MS) throw unprocessable(POSTBACK.purchaseBeforeClick);
  if (sinceClickMs > click.cookieWindowDays * 86_400_000) {
    throw unprocessable(POSTBACK.clickExpired(click.cookieWindowDays));
  }
  return { userId: click.userId, couponId: click.couponId, clickId: click.id };
}

/** The shopper of a purchase reported with a referral code, for a coupon live at the purchase time. */
async function attributedToReferralCode(
  manager: EntityManager,
  merchantId: number,
  purchase: PurchasePostbackDto,
  purchasedAt: Date,
): Promise<{ userId: number; couponId: number; clickId: null }> {
  // Cashback is for purchases made with a coupon shoppers could see: the merchant's own coupon,
  // live at that moment (not pending, rejected, withdrawn before or expired).
  const [live] = await manager.query(COUPON_LIVE_AT, [purchase.couponId, merchantId, purchasedAt]);
  if (!live) throw fieldError('couponId', POSTBACK.couponNotLive);
  const [shopper] = await manager.query(
    "SELECT owner_id AS id FROM referral_codes WHERE code = $1 AND owner_type = 'user'",
    [normaliseReferralCode(purchase.referralCode ?? '')],
  );
  if (!shopper) {
    throw new BadRequestException({
      statusCode: 400,
      message: POSTBACK.unknownShopper,
      errors: { referralCode: [POSTBACK.unknownShopper] },
    });
  }
  return { userId: shopper.id, couponId: purchase.couponId as number, clickId: null };
}

export class RecordPurchase extends Command<{ earningId: number; created: boolean }> {
  constructor(
    /** The merchant whose postback secret signed the report. */
    readonly merchantId: number,
    readonly purchase: PurchasePostbackDto,
  ) {
    super();
  }
}

/**
 * Records a reported purchase and its pending cashback, at the coupon's rate, else the
 * merchant's, else `CASHBACK_DEFAULT_RATE_PERCENT`, fixed when recorded. A reference the merchant
 * reported before is not recorded again: the first record is the answer.
 */
@CommandHandler(RecordPurchase)
export class RecordPurchaseHandler implements ICommandHandler<RecordPurchase> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute({ merchantId, purchase }: RecordPurchase) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const [existing] = await manager.query(
        "SELECT id FROM earnings WHERE kind = 'cashback' AND merchant_id = $1 AND purchase_reference = $2",
        [merchantId, purchase.purchaseReference],
      );
      if (existing) return { earningId: existing.id as number, created: false };
      const amountPaise = rupeesToPaise(purchase.purchaseAmount);
      if (amountPaise <= 0) throw fieldError('purchaseAmount', POSTBACK.zeroAmount);
      const purchasedAt = purchase.purchasedAt ? new Date(purchase.purchasedAt) : new Date();
      if (Number.isNaN(purchasedAt.getTime()) || purchasedAt.getTime() > Date.now() + CLOCK_SKEW_MS) {
        throw fieldError('purchasedAt', POSTBACK.purchasedAt);
      }
      const { userId, couponId, clickId } =
        purchase.clickId === undefined
          ? await attributedToReferralCode(manager, merchantId, purchase, purchasedAt)
          : await attributedToClick(manager, merchantId, purchase, purchasedAt);
      const [{ rate }] = await manager.query(
        `SELECT coalesce(c.cashback_rate_bp, m.cashback_rate_bp) AS rate
         FROM coupons c JOIN merchants m ON m.id = c.merchant_id WHERE c.id = $1`,
        [couponId],
      );
      const rateBp: number = rate ?? percentToBasisPoints(this.environment.CASHBACK_DEFAULT_RATE_PERCENT);
      const cashback = cashbackPaise(amountPaise, rateBp);
      const [created] = await manager.query(
        `INSERT INTO earnings (kind, user_id, merchant_id, coupon_id, purchase_reference, purchase_type,
                               purchase_amount_paise, rate_bp, amount_paise, purchased_at, click_id)
         VALUES ('cashback', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (merchant_id, purchase_reference) WHERE kind = 'cashback' DO NOTHING
         RETURNING id`,
        [
          userId,
          merchantId,
          couponId,
          purchase.purchaseReference,
          purchase.purchaseType,
          amountPaise,
          rateBp,
          cashback,
          purchasedAt,
          clickId,
        ],
      );
      if (!created) {
        // The same reference reported concurrently: the other report recorded it.
        const [other] = await manager.query(
          "SELECT id FROM earnings WHERE kind = 'cashback' AND merchant_id = $1 AND purchase_reference = $2",
          [merchantId, purchase.purchaseReference],
        );
        return { earningId: other.id as number, created: false };
      }
      record(
        new PurchaseRecorded(String(created.id), {
          merchantId,
          couponId,
          userId,
          purchaseAmountPaise: amountPaise,
          cashbackPaise: cashback,
        }),
      );
      return { earningId: created.id as number, created: true };
    });
  }
}

type Transition = 'confirmed' | 'paid' | 'cancelled';

/** Which state each state may become. Paid and cancelled are final. */
const NEXT_STATES: Record<CashbackState, readonly Transition[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['paid', 'cancelled'],
  paid: [],
  cancelled: [],
};

const TIMESTAMP_COLUMN: Record<Transition, string> = {
  confirmed: 'confirmed_at',
  paid: 'paid_at',
  cancelled: 'cancelled_at',
};

export class ChangeEarningState extends Command<void> {
  constructor(
    readonly earningId: number,
    readonly to: Transition,
  ) {
    super();
  }
}

@CommandHandler(ChangeEarningState)
export class ChangeEarningStateHandler implements ICommandHandler<ChangeEarningState> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ earningId, to }: ChangeEarningState) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const [earning] = await manager.query(
        `SELECT id, kind, state, user_id AS "userId", merchant_id AS "merchantId", amount_paise AS "amountPaise"
         FROM earnings WHERE id = $1 FOR UPDATE`,
        [earningId],
      );
      if (!earning) throw new NotFoundException({ statusCode: 404, message: EARNINGS.notFound });
      if (!NEXT_STATES[earning.state as CashbackState].includes(to)) {
        throw new ConflictException({
          statusCode: 409,
          message: EARNINGS.illegalTransition(earning.state, to),
        });
      }
      // Confirmed cashback may already be on its way to the shopper in a payout: it leaves the
      // balance only while what remains still covers the payouts (under the shopper's lock).
      if (earning.state === 'confirmed' && earning.userId !== null) {
        const balance = await lockedBalanceOf(manager, earning.userId);
        if (balance && balance.availablePaise < Number(earning.amountPaise)) {
          throw new ConflictException({ statusCode: 409, message: PAYOUT.earningWithdrawn });
        }
      }
      await manager.query(`UPDATE earnings SET state = $2, ${TIMESTAMP_COLUMN[to]} = now() WHERE id = $1`, [
        earningId,
        to,
      ]);
      const id = String(earningId);
      // The amount travels with the event, so the daily figures need not read the earning back.
      const amountPaise = Number(earning.amountPaise);
      if (to === 'confirmed')
        record(
          new CashbackConfirmed(id, { userId: earning.userId, merchantId: earning.merchantId, amountPaise }),
        );
      if (to === 'paid') record(new EarningPaid(id, { kind: earning.kind, amountPaise }));
      if (to === 'cancelled') record(new EarningCancelled(id, { kind: earning.kind, from: earning.state }));
    });
  }
}

export class IssuePostbackSecret extends Command<string> {
  constructor(
    readonly merchantId: number,
    /** Replace the current secret (the old one stops working at once). */
    readonly rotate: boolean,
  ) {
    super();
  }
}

/** The merchant's postback secret, made on first use; rotating records an event (never the secret). */
@CommandHandler(IssuePostbackSecret)
export class IssuePostbackSecretHandler implements ICommandHandler<IssuePostbackSecret> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ merchantId, rotate }: IssuePostbackSecret) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const fresh = randomBytes(32).toString('base64url');
      const [merchant] = await manager.query(
        `WITH issued AS (
           UPDATE merchants SET postback_secret = CASE WHEN $3 THEN $2 ELSE coalesce(postback_secret, $2) END
           WHERE id = $1 RETURNING postback_secret AS secret)
         SELECT * FROM issued`,
        [merchantId, fresh, rotate],
      );
      if (!merchant) throw new NotFoundException();
      if (merchant.secret === fresh) record(new PostbackSecretRotated(String(merchantId), {}));
      return merchant.secret as string;
    });
  }
}

export class CashbackRateChanged extends DomainEvent<{ rateBp: number | null }> {
  static readonly type = 'CashbackRateChanged';
  readonly type = CashbackRateChanged.type;
  constructor(
    readonly aggregateType: 'Merchant' | 'Coupon',
    aggregateId: string,
    payload: { rateBp: number | null },
  ) {
    super(aggregateId, payload);
  }
}

export class SetCashbackRate extends Command<void> {
  constructor(
    readonly on: 'merchant' | 'coupon',
    readonly id: number,
    readonly ratePercent: string | null,
  ) {
    super();
  }
}

/** The rate of future purchases; recorded cashback keeps the rate it was computed with. */
@CommandHandler(SetCashbackRate)
export class SetCashbackRateHandler implements ICommandHandler<SetCashbackRate> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ on, id, ratePercent }: SetCashbackRate) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const rateBp = ratePercent === null ? null : percentToBasisPoints(ratePercent);
      const table = on === 'merchant' ? 'merchants' : 'coupons';
      const changed = await manager.query(
        `WITH changed AS (UPDATE ${table} SET cashback_rate_bp = $2 WHERE id = $1 RETURNING id) SELECT * FROM changed`,
        [id, rateBp],
      );
      if (changed.length === 0) {
        throw new NotFoundException({
          statusCode: 404,
          message: `${on === 'merchant' ? 'Merchant' : 'Coupon'} not found.`,
        });
      }
      record(new CashbackRateChanged(on === 'merchant' ? 'Merchant' : 'Coupon', String(id), { rateBp }));
    });
  }
}
