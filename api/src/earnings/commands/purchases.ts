import { randomBytes } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { rateAtClick } from '../../cashback/queries/rates.js';
import { queueHeldPurchase } from '../../claims/queries/held-purchases.js';
import { findClick } from '../../clicks/queries/clicks.js';
import { couponWasLiveAt } from '../../coupons/queries/coupon-live-at.js';
import type { NetworkPostback } from '../../feeds/network-postbacks.js';
import { issuePostbackSecret } from '../../identity/merchant-tracking-store.js';
import { merchantStanding } from '../../identity/queries/profiles.js';
import { shopperOfReferralCode } from '../../identity/queries/referral-code-owners.js';
import { normaliseReferralCode } from '../../identity/referral-codes.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { lockedBalanceOf, lockShopperBalance } from '../../payouts/queries/payouts.js';
import { CLAIM_MESSAGES } from '../../rules/claims.js';
import { type CashbackState, EARNINGS, POSTBACK, REFERRAL_BONUS } from '../../rules/engagement.js';
import { FEED_POSTBACK, FEED_POSTBACK_MESSAGES, type FeedPostbackStatus } from '../../rules/feeds.js';
import { rupeesToPaise } from '../../rules/money.js';
import { PAYOUT } from '../../rules/payouts.js';
import type { PurchasePostbackDto } from '../dto/earnings.dto.js';
import {
  CashbackConfirmed,
  EarningCancelled,
  EarningPaid,
  PostbackSecretRotated,
  PurchaseCredited,
  PurchaseRecorded,
} from '../events/earnings-events.js';
import { cashbackPaise } from '../money.js';
import { REPORTED_ORDER, TRACKED_CLICKS } from '../queries/purchases.js';
import { cancelBonusOfPurchase, type ReferralSettings, settleReferralBonus } from './referral-bonus.js';

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
): Promise<{ userId: number; couponId: number; clickId: string; clickedAt: Date }> {
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
  return { userId: click.userId, couponId: click.couponId, clickId: click.id, clickedAt: click.clickedAt };
}

/** The shopper of a purchase reported with a referral code, for a coupon live at the purchase time. */
async function attributedToReferralCode(
  manager: EntityManager,
  merchantId: number,
  purchase: PurchasePostbackDto,
  purchasedAt: Date,
): Promise<{ userId: number; couponId: number; clickId: null; clickedAt: Date }> {
  // Cashback is for purchases made with a coupon shoppers could see: the merchant's own coupon,
  // live at that moment (not pending, rejected, withdrawn before or expired).
  if (!(await couponWasLiveAt(manager, purchase.couponId, merchantId, purchasedAt)))
    throw fieldError('couponId', POSTBACK.couponNotLive);
  const shopperId = await shopperOfReferralCode(
    manager,
    normaliseReferralCode(purchase.referralCode ?? '') ?? '',
  );
  if (shopperId === undefined) {
    throw new BadRequestException({
      statusCode: 400,
      message: POSTBACK.unknownShopper,
      errors: { referralCode: [POSTBACK.unknownShopper] },
    });
  }
  // Without a click, the rate live when the shopper bought.
  return { userId: shopperId, couponId: purchase.couponId as number, clickId: null, clickedAt: purchasedAt };
}

/**
 * A store whose account is not confirmed, or that an admin hid, reports no purchases: its signed
 * postback is refused (403) and changes nothing.
 */
async function refuseUnlistedMerchant(manager: EntityManager, merchantId: number): Promise<void> {
  const standing = await merchantStanding(manager, merchantId);
  if (standing?.hidden) throw new ForbiddenException({ statusCode: 403, message: POSTBACK.merchantHidden });
  if (!standing?.confirmed) {
    throw new ForbiddenException({ statusCode: 403, message: POSTBACK.merchantUnconfirmed });
  }
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
  /** When the shopper clicked (the purchase time when reported without a click): the rate's time. */
  clickedAt: Date;
  /** The product category the postback names, if any: its rate applies when the store has one. */
  category: string | null;
  /** A network's purchase: the feed source it came through and the network's commission. */
  network?: { sourceId: number; commissionPaise: number | null };
}

/**
 * Which purchases wait in the claims queue rather than count for their shopper at once: one
 * reported without a click (the store names a shopper by referral code, which nothing tracked
 * to a visit) and one whose cashback is above the store's cap. An admin's approval credits them.
 */
type HoldPolicy = 'by-rules' | 'never';

/** The purchase recorded: its earning, and the queue it waits in (none: credited at once). */
interface Recorded {
  id: number;
  heldAs: 'no_click' | 'over_cap' | null;
}

/**
 * Inserts the purchase's pending cashback at the rate live at its click, fixed now, records
 * PurchaseRecorded and settles the shopper's referral bonus. Cashback above the store's cap is
 * marked for an admin's review. Undefined when the same purchase (the merchant's reference, or
 * the source's order id) is already recorded: a concurrent report recorded it.
 */
async function insertCashback(
  tx: Transaction,
  purchase: CashbackPurchase,
  settings: CashbackSettings,
  hold: HoldPolicy = 'by-rules',
): Promise<Recorded | undefined> {
  const { manager, record } = tx;
  const { rate, capPaise } = await rateAtClick(
    manager,
    { merchantId: purchase.merchantId, couponId: purchase.couponId, clickedAt: purchase.clickedAt },
    purchase.category,
    settings,
  );
  const cashback = rate.kind === 'flat' ? rate.value : cashbackPaise(purchase.amountPaise, rate.value);
  const overCap = capPaise !== null && cashback > capPaise;
  const heldAs =
    hold === 'never' ? null : purchase.clickId === null ? 'no_click' : overCap ? 'over_cap' : null;
  const conflict = purchase.network
    ? "(network_source_id, purchase_reference) WHERE kind = 'cashback' AND network_source_id IS NOT NULL"
    : "(merchant_id, purchase_reference) WHERE kind = 'cashback' AND network_source_id IS NULL";
  const [created] = await manager.query(
    `INSERT INTO earnings (kind, user_id, merchant_id, coupon_id, purchase_reference, purchase_type,
                           purchase_amount_paise, rate_bp, amount_paise, purchased_at, click_id,
                           network_source_id, network_commission_paise, flat_rate_paise, over_cap,
                           held_for_review)
     VALUES ('cashback', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT ${conflict} DO NOTHING
     RETURNING id`,
    [
      purchase.userId,
      purchase.merchantId,
      purchase.couponId,
      purchase.reference,
      purchase.purchaseType,
      purchase.amountPaise,
      rate.kind === 'percent' ? rate.value : null,
      cashback,
      purchase.purchasedAt,
      purchase.clickId,
      purchase.network?.sourceId ?? null,
      purchase.network?.commissionPaise ?? null,
      rate.kind === 'flat' ? rate.value : null,
      overCap,
      heldAs !== null,
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
  if (heldAs) {
    // Not the shopper's cashback yet, so it earns no referral bonus until it is credited.
    await queueHeldPurchase(tx, {
      kind: heldAs,
      earningId: created.id,
      userId: purchase.userId,
      merchantId: purchase.merchantId,
      couponId: purchase.couponId,
      clickId: purchase.clickId,
      clickedAt: purchase.clickId === null ? null : purchase.clickedAt,
      orderId: purchase.reference,
      orderDate: purchase.purchasedAt,
      amountPaise: purchase.amountPaise,
    });
    return { id: created.id, heldAs };
  }
  await settleReferralBonus(tx, purchase.userId, settings);
  return { id: created.id, heldAs };
}

/** The settings a recorded purchase reads: the default cashback rate and the referral bonus's. */
type CashbackSettings = ReferralSettings & Pick<Environment, 'CASHBACK_DEFAULT_RATE_PERCENT'>;

const MERCHANT_PURCHASE = `SELECT id FROM earnings
  WHERE kind = 'cashback' AND merchant_id = $1 AND purchase_reference = $2 AND network_source_id IS NULL`;

/**
 * Records a reported purchase and its pending cashback at the rate live at its click (see
 * `rateAtClick`: the category the postback names, else the coupon's, else the store's, else
 * `CASHBACK_DEFAULT_RATE_PERCENT`), fixed when recorded. A reference the merchant reported before
 * is not recorded again: the first record is the answer.
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
      await refuseUnlistedMerchant(manager, merchantId);
      const [existing] = await manager.query(MERCHANT_PURCHASE, [merchantId, purchase.purchaseReference]);
      if (existing) return { earningId: existing.id as number, created: false };
      const amountPaise = rupeesToPaise(purchase.purchaseAmount);
      if (amountPaise <= 0) throw fieldError('purchaseAmount', POSTBACK.zeroAmount);
      const purchasedAt = purchase.purchasedAt ? new Date(purchase.purchasedAt) : new Date();
      if (Number.isNaN(purchasedAt.getTime()) || purchasedAt.getTime() > Date.now() + CLOCK_SKEW_MS) {
        throw fieldError('purchasedAt', POSTBACK.purchasedAt);
      }
      const { userId, couponId, clickId, clickedAt } =
        purchase.clickId === undefined
          ? await attributedToReferralCode(manager, merchantId, purchase, purchasedAt)
          : await attributedToClick(manager, merchantId, purchase, purchasedAt);
      const recorded = await insertCashback(
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
          clickedAt,
          category: purchase.category ?? null,
        },
        this.environment,
      );
      if (recorded !== undefined) return { earningId: recorded.id, created: true };
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

const TIMESTAMP_COLUMN: Record<Exclude<Transition, 'cancelled'>, string> = {
  confirmed: 'confirmed_at',
  paid: 'paid_at',
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
  tx: Transaction,
  earningId: number,
  to: Transition,
  settings: ReferralSettings,
  /** Why a network declined the purchase, kept with the cancelled earning for its shopper. */
  reason: string | null = null,
): Promise<void> {
  const { manager, record } = tx;
  const [earning] = await manager.query(
    `SELECT id, kind, state, user_id AS "userId", merchant_id AS "merchantId", amount_paise AS "amountPaise",
            source_earning_id AS "purchaseId", held_for_review AS held
     FROM earnings WHERE id = $1 FOR UPDATE`,
    [earningId],
  );
  if (!earning) throw new NotFoundException({ statusCode: 404, message: EARNINGS.notFound });
  // A held purchase is decided in the claims queue first: approved (credited) or rejected.
  if (earning.held && to !== 'cancelled') {
    throw new ConflictException({ statusCode: 409, message: CLAIM_MESSAGES.heldForReview });
  }
  if (!NEXT_STATES[earning.state as CashbackState].includes(to)) {
    throw new ConflictException({
      statusCode: 409,
      message: EARNINGS.illegalTransition(earning.state, to),
    });
  }
  if (earning.kind === 'referral' && to === 'confirmed') {
    const [purchase] = await manager.query('SELECT state FROM earnings WHERE id = $1', [earning.purchaseId]);
    if (!purchase || !['confirmed', 'paid'].includes(purchase.state)) {
      throw new ConflictException({ statusCode: 409, message: REFERRAL_BONUS.purchaseNotConfirmed });
    }
  }
  const settlesBonus = earning.kind === 'cashback' && earning.userId !== null && to !== 'paid';
  // The shopper's lock before the bonus's row, in the order every settlement takes them.
  if (settlesBonus) await lockShopperBalance(manager, earning.userId);
  // Confirmed cashback may already be on its way to the shopper in a payout: it leaves the
  // balance only while what remains still covers the payouts (under the shopper's lock).
  if (earning.state === 'confirmed' && earning.userId !== null) {
    const balance = await lockedBalanceOf(manager, earning.userId);
    if (balance && balance.availablePaise < Number(earning.amountPaise)) {
      throw new ConflictException({ statusCode: 409, message: PAYOUT.earningWithdrawn });
    }
  }
  if (settlesBonus && to === 'cancelled') await cancelBonusOfPurchase(tx, earningId);
  if (to === 'cancelled') {
    await manager.query(
      "UPDATE earnings SET state = 'cancelled', cancelled_at = now(), cancel_reason = $2 WHERE id = $1",
      [earningId, reason],
    );
  } else {
    await manager.query(`UPDATE earnings SET state = $2, ${TIMESTAMP_COLUMN[to]} = now() WHERE id = $1`, [
      earningId,
      to,
    ]);
  }
  const id = String(earningId);
  // The amount travels with the event, so the daily figures need not read the earning back.
  const amountPaise = Number(earning.amountPaise);
  if (to === 'confirmed')
    record(
      new CashbackConfirmed(id, { userId: earning.userId, merchantId: earning.merchantId, amountPaise }),
    );
  if (to === 'paid') record(new EarningPaid(id, { kind: earning.kind, amountPaise }));
  if (to === 'cancelled') {
    record(
      new EarningCancelled(id, {
        kind: earning.kind,
        from: earning.state,
        ...(reason !== null && { reason }),
      }),
    );
  }
  if (settlesBonus) await settleReferralBonus(tx, earning.userId, settings);
}

@CommandHandler(ChangeEarningState)
export class ChangeEarningStateHandler implements ICommandHandler<ChangeEarningState> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute({ earningId, to }: ChangeEarningState) {
    return this.unitOfWork.run((tx) => moveEarning(tx, earningId, to, this.environment));
  }
}

/**
 * A purchase a network reported to a feed source's postback address, its fields read and checked;
 * the click is on a coupon of the source's feed (the caller checked it), and the network's order id
 * with the source is the purchase's identity.
 */
export interface NetworkPurchaseReport extends NetworkPostback {
  sourceId: number;
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

const NETWORK_PURCHASE = `SELECT id, state, click_id AS "clickId", network_commission_paise AS "commissionPaise",
         merchant_id AS "merchantId", over_cap AS "overCap", held_for_review AS held
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
        await refuseUnlistedMerchant(manager, click.merchantId);
        if (click.userId === null) throw unprocessable(POSTBACK.anonymousClick);
        const recorded = await insertCashback(
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
            clickedAt: click.clickedAt,
            category: report.category,
            network: { sourceId: report.sourceId, commissionPaise: report.commissionPaise },
          },
          this.environment,
        );
        created = recorded !== undefined;
        // Recorded concurrently by the same report: the other one's record is the answer.
        [earning] = await manager.query(NETWORK_PURCHASE, [report.sourceId, report.orderId]);
      } else {
        await refuseUnlistedMerchant(manager, earning.merchantId);
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
      const newCommission =
        report.commissionPaise !== null && String(report.commissionPaise) !== String(earning.commissionPaise);
      if (newCommission) {
        await manager.query('UPDATE earnings SET network_commission_paise = $2 WHERE id = $1', [
          earning.id,
          report.commissionPaise,
        ]);
      }
      // Cashback above its store's cap waits for an admin, whatever the network approves.
      if (to === 'confirmed' && (earning.overCap || earning.held)) {
        return { earningId: earning.id as number, created, changed: created || newCommission };
      }
      await moveEarning(tx, earning.id, to, this.environment, to === 'cancelled' ? report.reason : null);
      return { earningId: earning.id as number, created, changed: true };
    });
  }
}

/** A purchase a shopper claimed and an admin approved: it becomes pending cashback as a report would. */
export interface ClaimedPurchase {
  userId: number;
  merchantId: number;
  couponId: number;
  orderId: string;
  amountPaise: number;
  purchasedAt: Date;
  clickId: string;
  clickedAt: Date;
}

/** The `purchase_type` of cashback an approved claim created. */
export const CLAIMED_PURCHASE_TYPE = 'claim';

/**
 * Records an approved claim's purchase as pending cashback at the rate live at its click, in the
 * claims command's transaction (which holds the claim's lock, so it runs once per claim). The
 * admin decided on it: it is not held again, even above the store's cap (it stays marked so).
 * Refused (409) when the store has meanwhile reported the click or the order itself.
 */
export async function recordClaimedPurchase(
  tx: Transaction,
  purchase: ClaimedPurchase,
  settings: CashbackSettings,
): Promise<{ earningId: number; cashbackPaise: number }> {
  const { manager } = tx;
  const tracked = await manager.query(TRACKED_CLICKS, [[purchase.clickId]]);
  const reported = await manager.query(REPORTED_ORDER, [purchase.merchantId, purchase.orderId]);
  if (tracked.length > 0 || reported.length > 0) {
    throw new ConflictException({ statusCode: 409, message: CLAIM_MESSAGES.storeReported });
  }
  const recorded = await insertCashback(
    tx,
    {
      userId: purchase.userId,
      merchantId: purchase.merchantId,
      couponId: purchase.couponId,
      reference: purchase.orderId,
      purchaseType: CLAIMED_PURCHASE_TYPE,
      amountPaise: purchase.amountPaise,
      purchasedAt: purchase.purchasedAt,
      clickId: purchase.clickId,
      clickedAt: purchase.clickedAt,
      category: null,
    },
    settings,
    'never',
  );
  if (!recorded) throw new ConflictException({ statusCode: 409, message: CLAIM_MESSAGES.storeReported });
  const [row] = await manager.query('SELECT amount_paise AS "amountPaise" FROM earnings WHERE id = $1', [
    recorded.id,
  ]);
  return { earningId: recorded.id, cashbackPaise: Number(row.amountPaise) };
}

/**
 * Credits a held purchase an admin approved in the claims queue: it becomes the shopper's
 * pending cashback (and may earn the referrer's bonus). Refused (409) when it was cancelled
 * meanwhile (a network declined it).
 */
export async function creditHeldPurchase(
  tx: Transaction,
  earningId: number,
  settings: CashbackSettings,
): Promise<void> {
  const { manager, record } = tx;
  const [earning] = await manager.query(
    `SELECT id, state, user_id AS "userId", merchant_id AS "merchantId", amount_paise AS "amountPaise",
            held_for_review AS held
     FROM earnings WHERE id = $1 FOR UPDATE`,
    [earningId],
  );
  if (!earning) throw new NotFoundException({ statusCode: 404, message: EARNINGS.notFound });
  if (earning.state === 'cancelled') {
    throw new ConflictException({ statusCode: 409, message: CLAIM_MESSAGES.purchaseGone });
  }
  if (!earning.held) return;
  await manager.query('UPDATE earnings SET held_for_review = false WHERE id = $1', [earningId]);
  record(
    new PurchaseCredited(String(earningId), {
      userId: earning.userId,
      merchantId: earning.merchantId,
      cashbackPaise: Number(earning.amountPaise),
    }),
  );
  await settleReferralBonus(tx, earning.userId, settings);
}

/** Cancels a held purchase an admin rejected in the claims queue (nothing to do when already cancelled). */
export async function cancelHeldPurchase(
  tx: Transaction,
  earningId: number,
  settings: CashbackSettings,
): Promise<void> {
  const [earning] = await tx.manager.query('SELECT state FROM earnings WHERE id = $1 FOR UPDATE', [
    earningId,
  ]);
  if (!earning || earning.state === 'cancelled') return;
  await moveEarning(tx, earningId, 'cancelled', settings);
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
      const secret = await issuePostbackSecret(manager, merchantId, fresh, rotate);
      if (secret === undefined) throw new NotFoundException();
      if (secret === fresh) record(new PostbackSecretRotated(String(merchantId), {}));
      return secret;
    });
  }
}
