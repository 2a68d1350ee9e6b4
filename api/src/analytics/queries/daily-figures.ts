import type { EntityManager } from 'typeorm';
import { ClickedOut } from '../../clicks/events/click-events.js';
import { CouponApproved, CouponRevealed } from '../../coupons/events/coupon-events.js';
import { CashbackConfirmed, EarningPaid, PurchaseRecorded } from '../../earnings/events/earnings-events.js';
import { earningAmountPaise } from '../../earnings/queries/earning-amounts.js';
import { UserRegistered } from '../../identity/events/account-events.js';
import type { PublishedEvent } from '../../infrastructure/events/domain-event.js';
import { PayoutPaid } from '../../payouts/events/payout-events.js';
import { DAILY_FIGURES, type DailyFigure, MARKET_TIME_ZONE } from '../../rules/index.js';

/** The projection's name: it keys its inbox rows. */
export const DAILY_FIGURES_CONSUMER = 'daily-figures';

/** The events the daily figures count. */
export const DAILY_FIGURE_EVENTS = [
  CouponRevealed.type,
  ClickedOut.type,
  PurchaseRecorded.type,
  UserRegistered.type,
  CouponApproved.type,
  CashbackConfirmed.type,
  EarningPaid.type,
  PayoutPaid.type,
] as const;

/** One addition to the aggregates: a figure of a merchant (0: none) and coupon (0: the total). */
interface Addition {
  figure: DailyFigure;
  merchantId: number;
  couponId: number;
  amountPaise: number;
}

/**
 * Adds a lot's additions to their days' rows, creating a row on the first event of its day. The
 * day is India's day of the instant each event occurred, not of its delivery. The additions are
 * summed per row first and the rows taken in the unique key's order: lots applied in parallel that
 * share rows (a merchant's total of the day) then lock them in the same order, never in a cycle.
 */
const ADD_TO_DAYS = `
  INSERT INTO daily_figures AS f (figure, merchant_id, coupon_id, day, count, amount_paise)
  SELECT figure, merchant_id, coupon_id, (occurred_at AT TIME ZONE '${MARKET_TIME_ZONE}')::date AS day,
         count(*), sum(amount_paise)
  FROM unnest($1::text[], $2::int[], $3::int[], $4::bigint[], $5::timestamptz[])
       AS a(figure, merchant_id, coupon_id, amount_paise, occurred_at)
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (figure, merchant_id, coupon_id, day)
  DO UPDATE SET count = f.count + EXCLUDED.count, amount_paise = f.amount_paise + EXCLUDED.amount_paise`;

/** A figure of a merchant's coupon: the coupon's row and the merchant's total row. */
const perCoupon = (
  figure: DailyFigure,
  merchantId: number,
  couponId: number,
  amountPaise = 0,
): Addition[] => [
  { figure, merchantId, couponId, amountPaise },
  { figure, merchantId, couponId: 0, amountPaise },
];

const amountOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** What one event adds to the daily figures. */
async function additionsOf(event: PublishedEvent, manager: EntityManager): Promise<Addition[]> {
  const payload = event.payload as Record<string, unknown>;
  const merchantId = Number(payload.merchantId ?? 0) || 0;
  switch (event.type) {
    case CouponRevealed.type:
      return perCoupon(DAILY_FIGURES.reveals, merchantId, Number(event.aggregateId) || 0);
    case ClickedOut.type:
      // An address's repeated click-outs on a coupon within the window count once.
      if (payload.counted === false) return [];
      return perCoupon(DAILY_FIGURES.clickOuts, merchantId, Number(payload.couponId) || 0);
    case PurchaseRecorded.type:
      return perCoupon(
        DAILY_FIGURES.purchases,
        merchantId,
        Number(payload.couponId) || 0,
        amountOf(payload.purchaseAmountPaise) ?? 0,
      );
    case UserRegistered.type:
      return [{ figure: DAILY_FIGURES.signUps, merchantId: 0, couponId: 0, amountPaise: 0 }];
    case CouponApproved.type:
      return [{ figure: DAILY_FIGURES.couponsApproved, merchantId, couponId: 0, amountPaise: 0 }];
    case CashbackConfirmed.type: {
      const amountPaise =
        amountOf(payload.amountPaise) ?? (await earningAmountPaise(manager, Number(event.aggregateId) || 0));
      return [{ figure: DAILY_FIGURES.cashbackConfirmed, merchantId, couponId: 0, amountPaise }];
    }
    case EarningPaid.type: {
      // Referral bonuses are paid from the same balance as cashback, so they count as paid too.
      const amountPaise =
        amountOf(payload.amountPaise) ?? (await earningAmountPaise(manager, Number(event.aggregateId) || 0));
      return [{ figure: DAILY_FIGURES.cashbackPaid, merchantId: 0, couponId: 0, amountPaise }];
    }
    case PayoutPaid.type:
      return [
        {
          figure: DAILY_FIGURES.cashbackPaid,
          merchantId: 0,
          couponId: 0,
          amountPaise: amountOf(payload.amountPaise) ?? 0,
        },
      ];
    default:
      return [];
  }
}

/**
 * Counts a lot of events into the daily figures, in one statement. The caller guarantees once per
 * event (the consumer's inbox rows in the same transaction). Counting is commutative, so delivery
 * order does not matter.
 */
export async function countIntoDailyFigures(events: PublishedEvent[], manager: EntityManager): Promise<void> {
  const additions: Array<Addition & { occurredAt: string }> = [];
  for (const event of events)
    for (const addition of await additionsOf(event, manager))
      additions.push({ ...addition, occurredAt: event.occurredAt });
  if (additions.length === 0) return;
  await manager.query(ADD_TO_DAYS, [
    additions.map((a) => a.figure),
    additions.map((a) => a.merchantId),
    additions.map((a) => a.couponId),
    additions.map((a) => a.amountPaise),
    additions.map((a) => a.occurredAt),
  ]);
}
