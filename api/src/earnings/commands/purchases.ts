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
import { type Transaction, UnitOfWork } from '../../events/unit-of-work.js';
import { normaliseReferralCode } from '../../identity/referral-codes.js';
import { lockedBalanceOf } from '../../payouts/queries/payouts.js';
import { type CashbackState, EARNINGS, POSTBACK } from '../../rules/engagement.js';
import { FEED_POSTBACK, FEED_POSTBACK_MESSAGES, type FeedPostbackStatus } from '../../rules/feeds.js';
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

/** The cashback rate of a purchase through the coupon: the coupon's, else its merchant's, else the default. */
async function cashbackRateOf(
  manager: EntityManager,
  couponId: number,
  defaultPercent: string,
): Promise<number> {
  const [{ rate }] = await manager.query(
    `SELECT coalesce(c.cashback_rate_bp, m.cashback_rate_bp) AS rate
     FROM coupons c JOIN merchants m ON m.id = c.merchant_id WHERE c.id = $1`,
    [couponId],
  );
  return rate ?? percentToBasisPoints(defaultPercent);
}

/** A purchase as an earning records it, attributed to its shopper and coupon. */
interface CashbackPurchase {
  userId: number;
  merchantId: number;
  couponId: number;
  reference: string;
  purchaseType: string;
  amountPaise: number;
  purchasedAt: Date;
  clickId: string | null;
  /** A network's purchase: the feed source it came through and the network's commission. */
  network?: { sourceId: number; commissionPaise: number | null };
}

/**
 * Inserts the purchase's pending cashback at its rate, fixed now, and records PurchaseRecorded.
 * Undefined when the same purchase (the merchant's reference, or the source's order id) is
 * already recorded: a concurrent report recorded it.
 */
async function insertCashback(
  { manager, record }: Transaction,
  purchase: CashbackPurchase,
  defaultRatePercent: string,
): Promise<number | undefined> {
  const rateBp = await cashbackRateOf(manager, purchase.couponId, defaultRatePercent);
  const cashback = cashbackPaise(purchase.amountPaise, rateBp);
  const conflict = purchase.network
    ? "(network_source_id, purchase_reference) WHERE kind = 'cashback' AND network_source_id IS NOT NULL"
    : "(merchant_id, purchase_reference) WHERE kind = 'cashback' AND network_source_id IS NULL";
  const [created] = await manager.query(
    `INSERT INTO earnings (kind, user_id, merchant_id, coupon_id, purchase_reference, purchase_type,
                           purchase_amount_paise, rate_bp, amount_paise, purchased_at, click_id,
                           network_source_id, network_commission_paise)
     VALUES ('cashback', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT ${conflict} DO NOTHING
     RETURNING id`,
    [
      purchase.userId,
      purchase.merchantId,
      purchase.couponId,
      purchase.reference,
      purchase.purchaseType,
      purchase.amountPaise,
      rateBp,
      cashback,
      purchase.purchasedAt,
      purchase.clickId,
      purchase.network?.sourceId ?? null,
      purchase.network?.commissionPaise ?? null,
    ],
  );
  if (!created) return undefined;
  record(
    new PurchaseRecorded(String(created.id), {
      merchantId: purchase.merchantId,
      couponId: purchase.couponId,
      userId: purchase.userId,
      purchaseAmountPaise: purchase.amountPaise,
      cashbackPaise: cashback,
      ...(purchase.network && { networkSourceId: purchase.network.sourceId }),
    }),
  );
  return created.id as number;
}

const MERCHANT_PURCHASE = `SELECT id FROM earnings
  WHERE kind = 'cashback' AND merchant_id = $1 AND purchase_reference = $2 AND network_source_id IS NULL`;

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
    return this.unitOfWork.run(async (tx) => {
      const { manager } = tx;
      const [existing] = await manager.query(MERCHANT_PURCHASE, [merchantId, purchase.purchaseReference]);
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
      const earningId = await insertCashback(
        tx,
        {
          userId,
          merchantId,
          couponId,
          reference: purchase.purchaseReference,
          purchaseType: purchase.purchaseType,
          amountPaise,
          purchasedAt,
          clickId,
        },
        this.environment.CASHBACK_DEFAULT_RATE_PERCENT,
      );
      if (earningId !== undefined) return { earningId, created: true };
      // The same reference reported concurrently: the other report recorded it.
      const [other] = await manager.query(MERCHANT_PURCHASE, [merchantId, purchase.purchaseReference]);
      return { earningId: other.id as number, created: false };
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

/**
 * Moves an earning to `to` in the caller's transaction, with the event of the move: the one way
 * an admin's action and a network's postback change an earning's state.
 */
async function moveEarning(
  { manager, record }: Transaction,
  earningId: number,
  to: Transition,
): Promise<void> {
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
}

@CommandHandler(ChangeEarningState)
export class ChangeEarningStateHandler implements ICommandHandler<ChangeEarningState> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ earningId, to }: ChangeEarningState) {
    return this.unitOfWork.run((tx) => moveEarning(tx, earningId, to));
  }
}

/** A purchase a network reported to a feed source's postback address, its fields read and checked. */
export interface NetworkPurchaseReport {
  sourceId: number;
  /** A click on a coupon of the source's feed (the caller checked it). */
  clickId: string;
  /** The network's order id: with the source, the purchase's identity. */
  orderId: string;
  amountPaise: number;
  commissionPaise: number | null;
  /** Null when the network did not say. */
  status: FeedPostbackStatus | null;
}

export type NetworkPurchaseResult = { earningId: number; created: boolean; changed: boolean };

export class RecordNetworkPurchase extends Command<NetworkPurchaseResult> {
  constructor(readonly report: NetworkPurchaseReport) {
    super();
  }
}

/** The state a network's status moves an earning to (approved confirms it, declined cancels it). */
const STATE_OF_STATUS: Record<FeedPostbackStatus, CashbackState> = {
  pending: 'pending',
  approved: 'confirmed',
  declined: 'cancelled',
};

/** Whether the earning already is what the network says: approved cashback may since have been paid. */
const saysState = (status: FeedPostbackStatus, state: CashbackState) =>
  STATE_OF_STATUS[status] === state || (status === 'approved' && state === 'paid');

const NETWORK_PURCHASE = `SELECT id, state, click_id AS "clickId", network_commission_paise AS "commissionPaise"
  FROM earnings
  WHERE kind = 'cashback' AND network_source_id = $1 AND purchase_reference = $2 FOR UPDATE`;

/**
 * Records a network's purchase once per (source, order id), credited to the click's shopper at
 * the cashback rate a merchant's postback gets, and moves its earning as the network's status
 * says, through the moves and events an admin's action makes. A report saying what the earning
 * already is changes nothing and records no event; a status the earning cannot take (pending
 * after approved, approved after declined) is a 409. The network attributed the sale through its
 * own tracking link, so the store's cookie window does not apply.
 */
@CommandHandler(RecordNetworkPurchase)
export class RecordNetworkPurchaseHandler implements ICommandHandler<RecordNetworkPurchase> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute({ report }: RecordNetworkPurchase): Promise<NetworkPurchaseResult> {
    return this.unitOfWork.run(async (tx) => {
      const { manager } = tx;
      let [earning] = await manager.query(NETWORK_PURCHASE, [report.sourceId, report.orderId]);
      let created = false;
      if (!earning) {
        const click = await findClick(manager, report.clickId);
        if (!click) throw new NotFoundException({ statusCode: 404, message: POSTBACK.unknownClick });
        if (click.userId === null) throw unprocessable(POSTBACK.anonymousClick);
        const earningId = await insertCashback(
          tx,
          {
            userId: click.userId,
            merchantId: click.merchantId,
            couponId: click.couponId,
            reference: report.orderId,
            purchaseType: FEED_POSTBACK.purchaseType,
            amountPaise: report.amountPaise,
            purchasedAt: new Date(),
            clickId: click.id,
            network: { sourceId: report.sourceId, commissionPaise: report.commissionPaise },
          },
          this.environment.CASHBACK_DEFAULT_RATE_PERCENT,
        );
        created = earningId !== undefined;
        // Recorded concurrently by the same report: the other one's record is the answer.
        [earning] = await manager.query(NETWORK_PURCHASE, [report.sourceId, report.orderId]);
      }
      if (earning.clickId !== report.clickId) {
        throw new ConflictException({ statusCode: 409, message: FEED_POSTBACK_MESSAGES.orderOtherClick });
      }
      const state = earning.state as CashbackState;
      if (report.status === null || saysState(report.status, state)) {
        return { earningId: earning.id as number, created, changed: created };
      }
      const to = STATE_OF_STATUS[report.status];
      if (to === 'pending') {
        throw new ConflictException({ statusCode: 409, message: EARNINGS.illegalTransition(state, to) });
      }
      // The network's commission as it stands when it decides (an approved sale's final figure).
      if (
        report.commissionPaise !== null &&
        String(report.commissionPaise) !== String(earning.commissionPaise)
      ) {
        await manager.query('UPDATE earnings SET network_commission_paise = $2 WHERE id = $1', [
          earning.id,
          report.commissionPaise,
        ]);
      }
      await moveEarning(tx, earning.id, to);
      return { earningId: earning.id as number, created, changed: true };
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
