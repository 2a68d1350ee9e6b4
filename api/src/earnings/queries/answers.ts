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
