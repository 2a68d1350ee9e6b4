/**
 * Earnings' answers, as JSON carries them (rupees as decimal strings, dates as ISO strings). Types
 * only and without dependencies, so the web apps import them (type-only) instead of copying them.
 */
import type { CashbackState } from '../../rules/engagement.js';

/** Cashback on a reported purchase, or the bonus for referring a shopper. */
export type EarningKind = 'cashback' | 'referral';

/** An entry of a purchase history; a referral bonus has no coupon, merchant or purchase amount. */
export interface EarningsEntry {
  id: number;
  type: EarningKind;
  couponId: number | null;
  merchantId: number | null;
  /** As the merchant reported it; 'referral' for a referral bonus. */
  purchaseType: string | null;
  purchaseAmount: string | null;
  cashback: string;
  state: CashbackState;
  date: string;
}

/**
 * A shopper's (`GET /api/me/earnings`) or a referring merchant's (`GET /api/merchant/earnings`)
 * history, newest first, a page at a time, with the sums of all of it by state.
 */
export interface EarningsHistory {
  purchaseHistory: EarningsEntry[];
  totals: Record<CashbackState, string>;
  /** How many entries there are in all. */
  total: number;
  page: number;
  perPage: number;
}

/** Where and how a merchant reports purchases (`GET /api/merchant/postback-secret`). */
export interface PostbackSettings {
  secret: string;
  url: string;
  signatureHeader: string;
  signature: string;
}

/** The steps of an earning's life, in order; a cancelled earning ends at `cancelled` instead of `paid`. */
export type EarningStep = 'clicked' | 'tracked' | 'pending' | 'confirmed' | 'paid' | 'cancelled';

/**
 * One step of an earning's timeline: `done` (with its time), `current` (the earning is there
 * now: pending, or paid out in a payout on its way) or `upcoming` (with the date it is expected
 * by, when one can be said).
 */
export interface EarningTimelineStep {
  step: EarningStep;
  status: 'done' | 'current' | 'upcoming';
  at: string | null;
  expectedAt: string | null;
}

/**
 * An earning with each step of its life (`GET /api/me/earnings/:id`): the store and click it came
 * from, when its purchase was tracked, when its store is expected to confirm it, and the payout
 * that spent it or why it was cancelled.
 */
export interface EarningTimeline {
  id: number;
  type: EarningKind;
  state: CashbackState;
  /** The store of the purchase (none for a referral bonus). */
  store: { id: number; name: string; slug: string | null } | null;
  purchaseAmount: string | null;
  cashback: string;
  /** The days the store takes to confirm, as it has them now: the expected date's basis. */
  confirmDays: number | null;
  /** The network's reason for declining the purchase, when its postback gave one. */
  cancelReason: string | null;
  /** The payout that spends this earning, once one does. */
  payout: {
    id: number;
    state: 'requested' | 'processing' | 'paid';
    requestedAt: string;
    paidAt: string | null;
  } | null;
  steps: EarningTimelineStep[];
}
