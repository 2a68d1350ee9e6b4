/**
 * Missing-cashback claims and the admins' review queue they share with purchases that wait for
 * an admin (reported without a click, or above the store's cap): limits, messages and answer
 * types shared by the API, the public site's claim form and the back-office's queue.
 */

/**
 * What waits in the queue: a shopper's claim for a click-out whose purchase the store never
 * reported, a purchase reported without a click, or one whose cashback is above the store's cap.
 */
export const CLAIM_KINDS = ['claim', 'no_click', 'over_cap'] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];

export const CLAIM_STATES = ['open', 'approved', 'rejected'] as const;
export type ClaimState = (typeof CLAIM_STATES)[number];

export const CLAIM_RULES = {
  /** A click-out is claimed from this many days after it, so the store's own report can arrive first. */
  minAgeDays: 1,
  /** Claims one shopper may have waiting for an answer at once. */
  openMax: 5,
  /** The store's order id: letters, digits and the marks stores use, as printed on the invoice. */
  orderId: /^[A-Za-z0-9][A-Za-z0-9#/_.:-]{2,63}$/,
  orderIdMaxLength: 64,
  /** Rupees with up to 2 decimals, as typed ("1299", "1299.50"). */
  amount: /^\d{1,7}(\.\d{1,2})?$/,
  /** The order date as a calendar day (India's), YYYY-MM-DD. */
  orderDate: /^\d{4}-\d{2}-\d{2}$/,
  /** The invoice image, checked by its bytes; its metadata (EXIF, GPS) removed before it is kept. */
  invoiceMaxMegabytes: 5,
  invoiceAccept: 'image/jpeg,image/png,image/webp',
  reasonMaxLength: 500,
  /** Days an admin is expected to take to answer (the default of CLAIM_ANSWER_DAYS). */
  answerDaysDefault: 30,
} as const;

export const CLAIM_MESSAGES = {
  clickId: 'Choose the visit to the store this purchase came from.',
  clickNotFound: 'We found no such visit to a store in your account.',
  tooRecent: `A purchase can be claimed from ${CLAIM_RULES.minAgeDays} day after your visit to the store: the store may still report it.`,
  /** The click is older than its store's claim window: `count` is the window's days (countedMessage). */
  tooOld: {
    one: 'This store takes claims up to {{count}} day after your visit; this visit is older.',
    other: 'This store takes claims up to {{count}} days after your visit; this visit is older.',
  },
  alreadyTracked: 'The store already reported a purchase from this visit.',
  alreadyClaimed: 'You already claimed a purchase from this visit.',
  orderIdTaken: 'This order id was already claimed at this store.',
  tooManyOpen: `You have ${CLAIM_RULES.openMax} claims waiting for an answer: wait for one before filing another.`,
  orderId: {
    required: 'Enter the order id.',
    invalid: 'Enter the order id as the store shows it: 3 to 64 letters, digits or - _ / # . :',
  },
  orderDate: {
    required: 'Enter the order date.',
    invalid: 'Enter the order date as a day, like 2026-03-14.',
    beforeClick: 'The order date is before your visit to the store.',
    future: 'The order date is in the future.',
  },
  amount: {
    required: 'Enter the amount you paid.',
    invalid: 'Enter the amount in rupees, with up to 2 decimals.',
    zero: 'The amount must be more than ₹0.',
  },
  invoiceNotImage: 'The invoice must be an image (JPEG, PNG or WebP).',
  invoiceTooLarge: `The invoice image must be at most ${CLAIM_RULES.invoiceMaxMegabytes} MB.`,
  reason: {
    required: 'Give the shopper a reason.',
    tooLong: `A reason is at most ${CLAIM_RULES.reasonMaxLength} characters.`,
  },
  notFound: 'Claim not found.',
  invoiceNotFound: 'Invoice not found.',
  answered: (state: string) => `This claim was already ${state}.`,
  storeReported: 'The store already reported this order: its cashback is tracked.',
  purchaseGone: 'The purchase of this claim was cancelled meanwhile.',
  heldForReview: 'This purchase waits in the missing-cashback queue: approve or reject it there first.',
} as const;

/** "2026-03-14" as India's midnight starting that day. */
export const indiaDayStart = (day: string) => new Date(`${day}T00:00:00+05:30`);

/** A shopper's claim as `GET /api/me/missing-cashback-claims` answers it. */
export interface ShopperClaim {
  id: number;
  kind: ClaimKind;
  state: ClaimState;
  storeId: number;
  storeName: string;
  couponTitle: string | null;
  clickedAt: string | null;
  orderId: string;
  orderDate: string;
  amount: string;
  /** The shopper's own invoice (`/api/me/missing-cashback-claims/:id/invoice`), or null. */
  invoiceUrl: string | null;
  filedAt: string;
  /** When an answer is due: filed + CLAIM_ANSWER_DAYS. */
  expectedBy: string;
  answeredAt: string | null;
  reason: string | null;
  /** The cashback the approval credited, in rupees. */
  cashback: string | null;
}

/** A click-out the shopper may claim now: old enough, within its store's window, nothing tracked. */
export interface ClaimableClick {
  clickId: string;
  clickedAt: string;
  storeId: number;
  storeName: string;
  couponId: number;
  couponTitle: string;
  /** The last moment a claim is taken. */
  claimableUntil: string;
}

/** An item of the admins' queue (`/api/admin/missing-cashback-claims`). */
export interface AdminClaim {
  id: number;
  kind: ClaimKind;
  state: ClaimState;
  userId: number;
  shopperName: string | null;
  storeId: number;
  storeName: string;
  couponId: number | null;
  couponTitle: string | null;
  clickId: string | null;
  clickedAt: string | null;
  /** Whether the claim was filed from the click-out's client address (null: nothing to compare). */
  sameAddress: boolean | null;
  orderId: string;
  orderDate: string;
  amount: string;
  invoiceUrl: string | null;
  earningId: number | null;
  filedAt: string;
  expectedBy: string;
  answeredAt: string | null;
  reason: string | null;
}
