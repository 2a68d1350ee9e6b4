import { IMAGE_RULES } from './media.js';

/** Limits and messages of the coupon form (spec §5 "Coupon upload", §9): one source for API and forms. */

export const COUPON_CODE = /^[A-Za-z0-9_-]{4,15}$/;
export const WHOLE_NUMBER = /^\d+$/;

export const COUPON_FORM = {
  couponName: {
    minLength: 3,
    required: 'Coupon Name is required.',
    tooShort: 'Coupon Name must be at least 3 characters.',
  },
  couponCode: {
    required: 'Coupon Code is required.',
    invalid: 'Coupon Code must be 4 to 15 letters, digits, - or _.',
  },
  expiryDate: {
    required: 'Expiry Date is required.',
    invalid: 'Enter a valid date.',
    past: 'Expiry Date must be in the future.',
  },
  termsAndConditions: {
    minLength: 5,
    required: 'Terms and Conditions are required.',
    tooShort: 'Terms and Conditions must be at least 5 characters.',
  },
  title: { maxLength: 50, required: 'Title is required.', tooLong: 'Title must be at most 50 characters.' },
  description: {
    maxLength: 200,
    required: 'Description is required.',
    tooLong: 'Description must be at most 200 characters.',
  },
  percentage: {
    min: 1,
    max: 100,
    required: 'Percentage is required.',
    invalid: 'Percentage must be a whole number from 1 to 100.',
  },
  discountValue: {
    min: 1,
    required: 'Discount Value is required.',
    invalid: 'Discount Value must be a whole number of at least 1.',
  },
  requestedSlotId: { required: 'Requested Slot is required.', unknown: 'This slot does not exist.' },
  merchantUrl: { invalid: 'Enter a valid website address (http or https).' },
  categoryIds: { required: 'Choose at least one category.', unknown: 'This category does not exist.' },
  adPost: { notImage: IMAGE_RULES.notImage },
  uploaded: 'Image uploaded successfully',
} as const;

/**
 * Languages a coupon's texts may be given in beside English (its own title, description and
 * terms). Cards, store pages, search and mails show the visitor's language where there is one.
 */
export const COUPON_TEXT_LANGUAGES = ['hi', 'te'] as const;
export type CouponTextLanguage = (typeof COUPON_TEXT_LANGUAGES)[number];

/** A coupon's texts in one more language: a title and a description, terms if they differ. */
export interface CouponText {
  title: string;
  description: string;
  terms: string | null;
}
export type CouponTexts = Partial<Record<CouponTextLanguage, CouponText>>;

/**
 * The form's fields of the texts in other languages (`titleHi`, `descriptionTe`, ...): flat, so a
 * multipart form carries them as well as JSON. An empty field clears it.
 */
export const COUPON_TEXT_FIELDS = {
  hi: { title: 'titleHi', description: 'descriptionHi', terms: 'termsHi' },
  te: { title: 'titleTe', description: 'descriptionTe', terms: 'termsTe' },
} as const satisfies Record<CouponTextLanguage, Record<keyof CouponText, string>>;

/** Limits of texts in other languages are those of the English ones; these say which language. */
export const COUPON_TEXT_RULES = {
  termsMaxLength: 2000,
  titleRequired: (language: string) => `A ${language} title is required with a ${language} description.`,
  descriptionRequired: (language: string) =>
    `A ${language} description is required with a ${language} title.`,
  titleTooLong: (language: string) =>
    `The ${language} title must be at most ${COUPON_FORM.title.maxLength} characters.`,
  descriptionTooLong: (language: string) =>
    `The ${language} description must be at most ${COUPON_FORM.description.maxLength} characters.`,
  termsTooShort: (language: string) =>
    `The ${language} terms must be at least ${COUPON_FORM.termsAndConditions.minLength} characters.`,
} as const;

/** The language names the messages above use. */
export const COUPON_TEXT_LANGUAGE_NAMES: Record<CouponTextLanguage, string> = { hi: 'Hindi', te: 'Telugu' };

/**
 * A coupon's text in `language`, English where it has none in it. Cards, store pages and mails
 * all choose with this.
 */
export function couponTextIn(
  coupon: { title: string; description: string; terms: string; texts?: CouponTexts | null },
  language: string,
): { title: string; description: string; terms: string } {
  const text = coupon.texts?.[language as CouponTextLanguage] ?? coupon;
  return { title: text.title, description: text.description, terms: text.terms ?? coupon.terms };
}

export const COUPON_REVIEW = {
  reasonRequired: 'A reason is required to reject a coupon.',
  slotFull: (slot: string) => `Slot "${slot}" is full.`,
  notPending: (status: string) => `Only a pending coupon can be reviewed; this one is ${status}.`,
  notEditable: (status: string) => `Only a pending coupon can be edited; this one is ${status}.`,
  notWithdrawable: (status: string) =>
    `Only a pending or live coupon can be withdrawn; this one is ${status}.`,
} as const;

export const COUPON_LISTING = {
  defaultPerPage: 8,
  /** The public site's pages of coupons: 12 fill whole rows of 1, 2, 3 or 4 columns. */
  sitePerPage: 12,
  maxPerPage: 100,
  /** Review queues page in fives (spec §9 "Approval list page size 5"). */
  reviewPerPage: 5,
  failed: 'Failed to fetch coupons.',
  /** Longest search text; longer is cut (the site) or refused (the API). */
  maxSearchLength: 100,
  searchInvalid: 'Search text cannot contain control characters.',
} as const;

/** The search box's suggestions: this many stores, categories and coupons at most. */
export const SEARCH_SUGGESTIONS = {
  perKind: 5,
  /** Matching coupons the suggested ones are chosen from (the search's own ranking for the rest). */
  candidates: 200,
} as const;

/** Characters no search text holds (PostgreSQL refuses NUL in text). */
export const CONTROL_CHARACTERS = /\p{Cc}/gu;

export const COUPON_SORTS = ['popular', 'newest', 'az', 'best', 'expiring', 'verified'] as const;
export type CouponSort = (typeof COUPON_SORTS)[number];

/** How often one client address may reveal codes, and how its reveals count towards popularity. */
export const REVEAL_LIMITS = {
  /** Reveals one address may make in a minute before it is asked to wait. */
  perMinute: 30,
  /** One address's reveals of the same coupon count once in this time. */
  countOncePerSeconds: 600,
  message: 'Too many codes revealed. Please wait a minute and try again.',
} as const;

/** A coupon shoppers can no longer use or follow (not live, past its date, or its store hidden). */
export const OFFER_UNAVAILABLE = 'This offer is no longer available.';

/**
 * "Did this code work?": one vote per visitor, coupon and day (India's day); a later vote that day
 * replaces the earlier one. A visitor is the signed-in account, else a first-party cookie id with
 * the client address. The success rate is shown once a coupon has `minVotesForRate` votes.
 */
export const COUPON_VOTES = {
  minVotesForRate: 5,
  workedRequired: 'Say whether the code worked: true or false.',
  unavailable: OFFER_UNAVAILABLE,
} as const;

/** India's time zone: "today" of `usedToday` and of one vote a day starts at midnight here. */
export const MARKET_TIME_ZONE = 'Asia/Kolkata';

/** India's offset from UTC: +05:30 all year (no daylight saving since 1945). */
const MARKET_UTC_OFFSET_MS = 330 * 60_000;

/**
 * The wall clock in India at an instant, and its calendar day as `YYYY-MM-DD`. Computed from the
 * fixed offset rather than with `Intl.DateTimeFormat`: the first time-zone format a browser builds
 * costs tens of milliseconds on a phone, paid while a page of coupon cards hydrates.
 */
export function marketClock(at: Date | number): {
  day: string;
  parts: { year: number; month: number; day: number; hour: number; minute: number; second: number };
} {
  const wall = new Date(new Date(at).getTime() + MARKET_UTC_OFFSET_MS);
  const parts = {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
  };
  const pad = (n: number) => String(n).padStart(2, '0');
  return { day: `${parts.year}-${pad(parts.month)}-${pad(parts.day)}`, parts };
}

const DAY_MS = 86_400_000;

/**
 * Whole days from today in India to the last day an offer can be used: 0 when it ends today, 1
 * tomorrow. An offer ending at midnight is last usable the day before.
 */
export function daysLeft(expiresAt: Date | string, now: Date | number = Date.now()): number {
  const last = new Date(expiresAt).getTime() - 1;
  return Math.round((Date.parse(marketClock(last).day) - Date.parse(marketClock(now).day)) / DAY_MS);
}

/** When the next day starts in India (ms since the epoch): words like "Ends today" hold until then. */
export function nextMarketMidnight(now: Date | number = Date.now()): number {
  const at = Math.floor(new Date(now).getTime() / 1000) * 1000;
  const { year, month, day, hour, minute, second } = marketClock(at).parts;
  const offset = Date.UTC(year, month - 1, day, hour, minute, second) - at;
  return Date.UTC(year, month - 1, day + 1) - offset;
}

/** Offers ending within this many days say so in days ("Ends in 3 days"); later ones give the date. */
export const ENDS_SOON_DAYS = 7;

export const SLOT_KINDS = ['free', 'paid'] as const;

/** The messages of the admins' slot forms and of the changes to slots they refuse. */
export const SLOT_MESSAGES = {
  name: 'Slot name is required.',
  kind: 'A slot is free or paid.',
  price: 'A paid slot needs a price in rupees (up to 2 decimals); a free slot has none.',
  capacity: 'Capacity is a whole number from 1.',
  notFound: 'Slot not found.',
  paidNeedsPrice: 'A paid slot needs a price in rupees.',
  nameTaken: 'A slot with this name exists.',
  hasCoupons: 'This slot has coupons and cannot be deleted.',
  inUse: 'This slot is in use and cannot be deleted.',
} as const;

/** The eight categories of the shop front, in display order. */
export const CATEGORIES = [
  'Skin Care',
  'Makeup',
  'Hair Care',
  'Fragrance',
  'Bath & Body',
  'Tools & Accessories',
  "Men's Grooming",
  'Natural & Organic',
] as const;
