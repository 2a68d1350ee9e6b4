/**
 * Stores' cashback: rates in percent or flat rupees, per store, per category of the store and per
 * coupon, with terms, the days a store takes to confirm, its claim window and a cap per purchase.
 * Limits, messages and answer types shared by the API and both web apps.
 */
import { LANGUAGES, type Language } from './engagement.js';
import { paiseToRupees, rupeesToPaise } from './money.js';

/** A rate as the API carries it: a percentage of the purchase, or a flat amount in rupees per purchase. */
export type CashbackRate = { percent: string } | { rupees: string };

/** A rate as the database keeps it: basis points (1250 = 12.5 %) or paise. */
export type StoredRate = { kind: 'percent'; value: number } | { kind: 'flat'; value: number };

export const CASHBACK_RATE_KINDS = ['percent', 'flat'] as const;
export type CashbackRateKind = (typeof CASHBACK_RATE_KINDS)[number];

/** Texts of a store's cashback (terms, exclusions) in each language of the product; empty when none. */
export type CashbackTexts = Record<Language, string>;
export const CASHBACK_LANGUAGES = LANGUAGES;

export const CASHBACK_LIMITS = {
  /** 0 to 100 with up to 2 decimals ("7", "7.5", "7.25"). */
  percent: /^(100(\.0{1,2})?|\d{1,2}(\.\d{1,2})?)$/,
  /** Rupees with up to 2 decimals, below ₹1,00,00,000. */
  rupees: /^\d{1,7}(\.\d{1,2})?$/,
  confirmDays: { min: 1, max: 365, default: 60 },
  /** Days after a click within which a shopper may claim a purchase its store did not report. */
  claimWindowDays: { min: 1, max: 90, default: 30 },
  termsMaxLength: 2000,
  exclusionsMaxLength: 2000,
  categoryName: { maxLength: 100 },
  /** Category rates one store may have. */
  categoriesMax: 50,
  /** A note of why the rate changed, kept in the history. */
  noteMaxLength: 300,
  historyPerPage: 25,
} as const;

export const CASHBACK_MESSAGES = {
  rate: 'A rate is {"percent": "0" to "100" with up to 2 decimals} or {"rupees": an amount with up to 2 decimals}.',
  baseRequired: 'A store’s cashback needs its base rate (null: the site’s default rate).',
  confirmDays: `The days to confirm are a whole number from ${CASHBACK_LIMITS.confirmDays.min} to ${CASHBACK_LIMITS.confirmDays.max}.`,
  claimWindowDays: `The claim window is a whole number of days from ${CASHBACK_LIMITS.claimWindowDays.min} to ${CASHBACK_LIMITS.claimWindowDays.max}.`,
  capRupees: 'The cap per purchase is rupees above ₹0 with up to 2 decimals, or null for none.',
  texts: `Terms and exclusions are {"en", "hi", "te"} texts of at most ${CASHBACK_LIMITS.termsMaxLength} characters.`,
  categories: `Category rates are up to ${CASHBACK_LIMITS.categoriesMax} of {"name", "rate"}.`,
  categoryName: `A category name is 1 to ${CASHBACK_LIMITS.categoryName.maxLength} characters.`,
  categoryTwice: (name: string) => `The category "${name}" is given twice.`,
  note: `A note is at most ${CASHBACK_LIMITS.noteMaxLength} characters.`,
  storeNotFound: 'Store not found.',
  couponNotFound: 'Coupon not found.',
  proposalNotFound: 'Cashback proposal not found.',
  proposalDecided: (state: string) => `This proposal was already ${state}.`,
  nothingChanged: 'Nothing changed.',
} as const;

/** "7.5" % → 750 basis points; "99.5" rupees → 9950 paise (exactly, as money is kept). */
export const toStoredRate = (rate: CashbackRate): StoredRate =>
  'percent' in rate
    ? { kind: 'percent', value: rupeesToPaise(rate.percent) }
    : { kind: 'flat', value: rupeesToPaise(rate.rupees) };

export const fromStoredRate = (rate: StoredRate): CashbackRate =>
  rate.kind === 'percent' ? { percent: paiseToRupees(rate.value) } : { rupees: paiseToRupees(rate.value) };

/** Whether a value is a rate the API accepts (the exact shape, nothing more). */
export function isCashbackRate(value: unknown): value is CashbackRate {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1) return false;
  const [key] = keys;
  const text = (value as Record<string, unknown>)[key!];
  if (typeof text !== 'string') return false;
  if (key === 'percent') return CASHBACK_LIMITS.percent.test(text);
  if (key === 'rupees') return CASHBACK_LIMITS.rupees.test(text);
  return false;
}

/** Category names match whatever their case and spacing ("skin  care" is "Skin Care"). */
export const categoryKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * "Up to X" of a store: the highest of its base and category rates. A percentage is what a store
 * card promises, so any percent rate wins over flat ones; a store of flat rates only says rupees.
 */
export function upToRate(rates: readonly CashbackRate[]): CashbackRate | null {
  const percents = rates.flatMap((rate) => ('percent' in rate ? [rupeesToPaise(rate.percent)] : []));
  if (percents.length > 0) return { percent: paiseToRupees(Math.max(...percents)) };
  const flats = rates.flatMap((rate) => ('rupees' in rate ? [rupeesToPaise(rate.rupees)] : []));
  return flats.length > 0 ? { rupees: paiseToRupees(Math.max(...flats)) } : null;
}

/** Where the rate of a purchase came from, most specific first. */
export const RATE_SOURCES = ['category', 'coupon', 'store', 'default'] as const;
export type RateSource = (typeof RATE_SOURCES)[number];

/**
 * A store's cashback as the public site and the claims show it (`storeCashback`): its base rate
 * (the site's default when it has none of its own), category rates, the highest of them, texts,
 * days to confirm, claim window and the cap above which an admin reviews a purchase.
 */
export interface StoreCashback {
  storeId: number;
  upTo: CashbackRate;
  base: CashbackRate;
  /** The base is the site's default rate, not one the store was given. */
  baseIsDefault: boolean;
  categories: Array<{ name: string; rate: CashbackRate }>;
  terms: CashbackTexts;
  exclusions: CashbackTexts;
  confirmDays: number;
  claimWindowDays: number;
  capRupees: string | null;
}

/** What each change of the history is about. */
export const CASHBACK_CHANGE_SCOPES = ['store', 'category', 'coupon', 'terms'] as const;
export type CashbackChangeScope = (typeof CASHBACK_CHANGE_SCOPES)[number];

/** Who made a change: an admin in the back-office, a feed's proposal an admin accepted, the migration. */
export const CASHBACK_CHANGE_ORIGINS = ['admin', 'proposal', 'migration'] as const;
export type CashbackChangeOrigin = (typeof CASHBACK_CHANGE_ORIGINS)[number];

/** One entry of a store's cashback history (`GET /api/admin/cashback-changes`). */
export interface CashbackChange {
  id: number;
  storeId: number;
  scope: CashbackChangeScope;
  categoryName: string | null;
  couponId: number | null;
  /** The rate in force from `changedAt` (rates), null when removed (the next one down applies). */
  rate: CashbackRate | null;
  /** Each field that changed, as it was and as it became. */
  changes: Record<string, { from: unknown; to: unknown }>;
  origin: CashbackChangeOrigin;
  adminId: number | null;
  adminName: string | null;
  proposalId: number | null;
  note: string | null;
  changedAt: string;
}

/**
 * A network's payout, as its feed gives it, turned into the rate the site would pass on: the
 * payout times the share (`CASHBACK_SHARE_PERCENT`), rounded down to the paisa or basis point.
 */
export function proposedRate(
  payout: { value: number; type: 'percent' | 'flat' },
  sharePercent: number,
): StoredRate | null {
  if (!Number.isFinite(payout.value) || payout.value <= 0) return null;
  // Hundredths of the payout times the share in percent, over 100: integers all the way.
  const value = Math.floor((Math.round(payout.value * 100) * Math.round(sharePercent * 100)) / 10_000);
  if (payout.type === 'percent') return value > 0 && value <= 10_000 ? { kind: 'percent', value } : null;
  return value > 0 && value < 1_000_000_000 ? { kind: 'flat', value } : null;
}

/** Feed formats whose rows' payout is the network's commission to the site (not the shopper's discount). */
export const PAYOUT_FEED_FORMATS = ['cuelinks-json'] as const;

export const CASHBACK_PROPOSAL_STATES = ['open', 'accepted', 'dismissed'] as const;
export type CashbackProposalState = (typeof CASHBACK_PROPOSAL_STATES)[number];

/** A rate a feed source proposes for a store (`GET /api/admin/cashback-proposals`). */
export interface CashbackProposal {
  id: number;
  storeId: number;
  sourceId: number;
  payout: CashbackRate;
  sharePercent: string;
  rate: CashbackRate;
  /** The store's base rate now, null when it has none of its own. */
  currentRate: CashbackRate | null;
  state: CashbackProposalState;
  proposedAt: string;
  decidedAt: string | null;
}

/** Whether a rate gives anything: a rate of 0 % or ₹0 is no cashback, and is never shown. */
export const earnsSomething = (rate: CashbackRate) =>
  rupeesToPaise('percent' in rate ? rate.percent : rate.rupees) > 0;

/**
 * What a coupon card, a store tile or a suggestion says before the click: "up to" the best rate
 * a purchase there can earn, as {@link upToRate} picks it among the rates that give something;
 * null when none does, and the card says nothing of cashback.
 */
export const shownUpTo = (rates: readonly CashbackRate[]): CashbackRate | null =>
  upToRate(rates.filter(earnsSomething));

/**
 * A store's cashback as its public page shows it (`cashback` of `GET /api/stores/:store`): "up
 * to", the base rate (null when it gives nothing) and each category's rate that gives something,
 * the terms and exclusions in en/hi/te (the page shows the visitor's language, else English), and
 * the days the store takes to confirm. Null on a store whose rates give nothing.
 */
export interface StoreCashbackShown {
  upTo: CashbackRate;
  base: CashbackRate | null;
  categories: Array<{ name: string; rate: CashbackRate }>;
  terms: CashbackTexts;
  exclusions: CashbackTexts;
  confirmDays: number;
}
