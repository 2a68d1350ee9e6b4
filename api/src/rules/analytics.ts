/**
 * The dashboards' figures: the period they cover, their messages, and the shapes the API answers
 * and the back-office charts. Days are India's calendar days (see `marketClock`).
 */
export const ANALYTICS = {
  defaultDays: 30,
  minDays: 1,
  /** Three months: enough to compare a sale season with the weeks around it. */
  maxDays: 90,
  /** Coupons listed under each "top coupons" heading. */
  topCoupons: 5,
  daysInvalid: 'days is a whole number from 1 to 90.',
  couponIdInvalid: 'couponId is the number of one of your coupons.',
  couponNotFound: 'Coupon not found.',
} as const;

/**
 * What the daily aggregates count, one row per figure, day, merchant and coupon (0 where the
 * figure is not a merchant's or a coupon's). Amounts are in paise.
 */
export const DAILY_FIGURES = {
  /** A shopper revealed a coupon's code. */
  reveals: 'reveals',
  /** A shopper left for the merchant's site through a coupon. */
  clickOuts: 'click-outs',
  /** A purchase reported by the merchant; the amount is the purchase's. */
  purchases: 'purchases',
  /** A shopper registered. */
  signUps: 'sign-ups',
  /** An admin approved a coupon into a slot. */
  couponsApproved: 'coupons-approved',
  /** Cashback confirmed to shoppers; the amount is the cashback's. */
  cashbackConfirmed: 'cashback-confirmed',
  /** Money paid to shoppers: earnings marked paid and payouts paid. */
  cashbackPaid: 'cashback-paid',
} as const;

export type DailyFigure = (typeof DAILY_FIGURES)[keyof typeof DAILY_FIGURES];

/** A merchant's figures of one day (`YYYY-MM-DD`, India). */
export interface MerchantAnalyticsDay {
  day: string;
  reveals: number;
  clickOuts: number;
  purchases: number;
  /** What the reported purchases came to, in rupees ("1234.50"). */
  sales: string;
}

/** A coupon's figures summed over the period. */
export interface CouponFigures {
  couponId: number;
  title: string;
  reveals: number;
  clickOuts: number;
  purchases: number;
}

/** `GET /api/merchant/analytics`: every day of the period, oldest first, zeros included. */
export interface MerchantAnalytics {
  from: string;
  to: string;
  days: number;
  /** The coupon the figures are of; null for all the merchant's coupons. */
  couponId: number | null;
  series: MerchantAnalyticsDay[];
  totals: Omit<MerchantAnalyticsDay, 'day'>;
  /** The merchant's coupons with the most of each figure over the period (all coupons). */
  topCoupons: { reveals: CouponFigures[]; clickOuts: CouponFigures[]; purchases: CouponFigures[] };
  /** Every coupon of the merchant, newest first, for the coupon picker. */
  coupons: Array<{ id: number; title: string }>;
}

/** The whole marketplace's figures of one day. */
export interface AdminAnalyticsDay {
  day: string;
  signUps: number;
  couponsApproved: number;
  reveals: number;
  /** Rupees ("1234.50"). */
  cashbackConfirmed: string;
  cashbackPaid: string;
}

export const REVIEW_QUEUES = ['coupons', 'products', 'payouts'] as const;
export type ReviewQueue = (typeof REVIEW_QUEUES)[number];

/** A queue of work waiting for an admin: how much, and since when the oldest item waits. */
export interface ReviewQueueAge {
  queue: ReviewQueue;
  waiting: number;
  oldestSince: string | null;
}

/** `GET /api/admin/analytics`. */
export interface AdminAnalytics {
  from: string;
  to: string;
  days: number;
  series: AdminAnalyticsDay[];
  totals: Omit<AdminAnalyticsDay, 'day'>;
  queues: ReviewQueueAge[];
}
