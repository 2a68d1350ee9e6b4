import type { DataSource } from 'typeorm';
import { couponsAwaitingReview } from '../../coupons/queries/review-queue.js';
import { storeCouponTitles } from '../../coupons/queries/store-coupons.js';
import { rupees } from '../../earnings/money.js';
import { payoutsAwaitingPayment } from '../../payouts/queries/review-queue.js';
import {
  type AdminAnalytics,
  type AdminAnalyticsDay,
  ANALYTICS,
  type CouponFigures,
  DAILY_FIGURES,
  type MerchantAnalytics,
  type MerchantAnalyticsDay,
  marketClock,
  type ReviewQueueAge,
} from '../../rules/index.js';
import { productsAwaitingReview } from '../../storefront/queries/review-queue.js';

export type {
  AdminAnalytics,
  AdminAnalyticsDay,
  CouponFigures,
  MerchantAnalytics,
  MerchantAnalyticsDay,
  ReviewQueueAge,
} from '../../rules/index.js';

type Reader = Pick<DataSource, 'query'>;

/** The period ending today in India, `days` days long: its first and last day. */
export function period(days: number, now: Date | number = Date.now()): { from: string; to: string } {
  const to = marketClock(now).day;
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

/**
 * Each day of the period with the figures of one merchant and coupon (0: all its coupons), zeros
 * on days without any; read by primary key, one row per figure and day.
 */
const MERCHANT_DAYS = `
  SELECT d::date::text AS day,
         coalesce(sum(f.count) FILTER (WHERE f.figure = '${DAILY_FIGURES.reveals}'), 0)::int AS reveals,
         coalesce(sum(f.count) FILTER (WHERE f.figure = '${DAILY_FIGURES.clickOuts}'), 0)::int AS "clickOuts",
         coalesce(sum(f.count) FILTER (WHERE f.figure = '${DAILY_FIGURES.purchases}'), 0)::int AS purchases,
         coalesce(sum(f.amount_paise) FILTER (WHERE f.figure = '${DAILY_FIGURES.purchases}'), 0)::text AS sales
  FROM generate_series($1::date, $2::date, interval '1 day') d
  LEFT JOIN daily_figures f ON f.day = d::date AND f.merchant_id = $3 AND f.coupon_id = $4
   AND f.figure IN ('${DAILY_FIGURES.reveals}', '${DAILY_FIGURES.clickOuts}', '${DAILY_FIGURES.purchases}')
  GROUP BY d ORDER BY d`;

/**
 * The merchant's coupons with figures in the period, summed per coupon (their titles come from
 * coupons, which also leaves out any row of a coupon that is not the merchant's).
 */
const COUPON_TOTALS = `
  SELECT f.coupon_id AS "couponId",
         coalesce(sum(f.count) FILTER (WHERE f.figure = '${DAILY_FIGURES.reveals}'), 0)::int AS reveals,
         coalesce(sum(f.count) FILTER (WHERE f.figure = '${DAILY_FIGURES.clickOuts}'), 0)::int AS "clickOuts",
         coalesce(sum(f.count) FILTER (WHERE f.figure = '${DAILY_FIGURES.purchases}'), 0)::int AS purchases
  FROM daily_figures f
  WHERE f.figure IN ('${DAILY_FIGURES.reveals}', '${DAILY_FIGURES.clickOuts}', '${DAILY_FIGURES.purchases}')
    AND f.merchant_id = $3 AND f.coupon_id <> 0 AND f.day BETWEEN $1 AND $2
  GROUP BY f.coupon_id`;

/** Highest first; ties by the coupon's id so the order is stable. */
const top = (coupons: CouponFigures[], figure: 'reveals' | 'clickOuts' | 'purchases') =>
  coupons
    .filter((coupon) => coupon[figure] > 0)
    .sort((a, b) => b[figure] - a[figure] || a.couponId - b.couponId)
    .slice(0, ANALYTICS.topCoupons);

/**
 * A merchant's reveals, click-outs and purchases per day (of one coupon when `couponId` is given,
 * which the caller has checked is the merchant's), its top coupons and its coupons to pick from.
 */
export async function merchantAnalytics(
  reader: Reader,
  merchantId: number,
  days: number,
  couponId: number | null,
): Promise<MerchantAnalytics> {
  const { from, to } = period(days);
  const [series, figures, coupons]: [
    Array<Omit<MerchantAnalyticsDay, 'sales'> & { sales: string }>,
    Array<Omit<CouponFigures, 'title'>>,
    Array<{ id: number; title: string }>,
  ] = await Promise.all([
    reader.query(MERCHANT_DAYS, [from, to, merchantId, couponId ?? 0]),
    reader.query(COUPON_TOTALS, [from, to, merchantId]),
    storeCouponTitles(reader, merchantId),
  ]);
  const titles = new Map(coupons.map((coupon) => [coupon.id, coupon.title]));
  const couponTotals: CouponFigures[] = figures.flatMap(({ couponId, ...counts }) => {
    const title = titles.get(couponId);
    return title === undefined ? [] : [{ couponId, title, ...counts }];
  });
  const sum = (key: 'reveals' | 'clickOuts' | 'purchases') => series.reduce((n, day) => n + day[key], 0);
  const salesPaise = series.reduce((n, day) => n + Number(day.sales), 0);
  return {
    from,
    to,
    days,
    couponId,
    series: series.map((day) => ({ ...day, sales: rupees(day.sales) })),
    totals: {
      reveals: sum('reveals'),
      clickOuts: sum('clickOuts'),
      purchases: sum('purchases'),
      sales: rupees(salesPaise),
    },
    topCoupons: {
      reveals: top(couponTotals, 'reveals'),
      clickOuts: top(couponTotals, 'clickOuts'),
      purchases: top(couponTotals, 'purchases'),
    },
    coupons,
  };
}

/** Each day of the period with the marketplace's figures: every merchant's total rows summed. */
const ADMIN_DAYS = `
  SELECT d::date::text AS day,
         coalesce(sum(f.count) FILTER (WHERE f.figure = '${DAILY_FIGURES.signUps}'), 0)::int AS "signUps",
         coalesce(sum(f.count) FILTER (WHERE f.figure = '${DAILY_FIGURES.couponsApproved}'), 0)::int AS "couponsApproved",
         coalesce(sum(f.count) FILTER (WHERE f.figure = '${DAILY_FIGURES.reveals}'), 0)::int AS reveals,
         coalesce(sum(f.amount_paise) FILTER (WHERE f.figure = '${DAILY_FIGURES.cashbackConfirmed}'), 0)::text AS "cashbackConfirmed",
         coalesce(sum(f.amount_paise) FILTER (WHERE f.figure = '${DAILY_FIGURES.cashbackPaid}'), 0)::text AS "cashbackPaid"
  FROM generate_series($1::date, $2::date, interval '1 day') d
  LEFT JOIN daily_figures f ON f.day = d::date AND f.coupon_id = 0
   AND f.figure IN ('${DAILY_FIGURES.signUps}', '${DAILY_FIGURES.couponsApproved}', '${DAILY_FIGURES.reveals}',
                    '${DAILY_FIGURES.cashbackConfirmed}', '${DAILY_FIGURES.cashbackPaid}')
  GROUP BY d ORDER BY d`;

/** How many items wait in each review queue and since when the oldest waits, as each queue's owner counts them. */
const QUEUE_AGES: Record<
  ReviewQueueAge['queue'],
  (reader: Reader) => Promise<{ waiting: number; oldestSince: Date | null }>
> = {
  coupons: couponsAwaitingReview,
  products: productsAwaitingReview,
  payouts: payoutsAwaitingPayment,
};

/** Whether the payouts table is there yet (it arrived with its own migration). */
const HAS_PAYOUTS = "SELECT to_regclass('payouts') IS NOT NULL AS present";

async function queueAges(reader: Reader): Promise<ReviewQueueAge[]> {
  const [{ present }] = await reader.query(HAS_PAYOUTS);
  const queues = (Object.keys(QUEUE_AGES) as Array<ReviewQueueAge['queue']>).filter(
    (queue) => queue !== 'payouts' || present,
  );
  return Promise.all(
    queues.map(async (queue) => {
      const row = await QUEUE_AGES[queue](reader);
      return {
        queue,
        waiting: row.waiting,
        oldestSince: row.oldestSince ? new Date(row.oldestSince).toISOString() : null,
      };
    }),
  );
}

/** The marketplace's figures per day over the period and the age of each review queue. */
export async function adminAnalytics(reader: Reader, days: number): Promise<AdminAnalytics> {
  const { from, to } = period(days);
  const [rows, queues]: [AdminAnalyticsDay[], ReviewQueueAge[]] = await Promise.all([
    reader.query(ADMIN_DAYS, [from, to]),
    queueAges(reader),
  ]);
  const count = (key: 'signUps' | 'couponsApproved' | 'reveals') => rows.reduce((n, day) => n + day[key], 0);
  const paise = (key: 'cashbackConfirmed' | 'cashbackPaid') =>
    rows.reduce((n, day) => n + Number(day[key]), 0);
  return {
    from,
    to,
    days,
    series: rows.map((day) => ({
      ...day,
      cashbackConfirmed: rupees(day.cashbackConfirmed),
      cashbackPaid: rupees(day.cashbackPaid),
    })),
    totals: {
      signUps: count('signUps'),
      couponsApproved: count('couponsApproved'),
      reveals: count('reveals'),
      cashbackConfirmed: rupees(paise('cashbackConfirmed')),
      cashbackPaid: rupees(paise('cashbackPaid')),
    },
    queues,
  };
}
