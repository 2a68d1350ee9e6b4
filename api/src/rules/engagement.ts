/** Limits and messages of the newsletter, contact form and earnings, shared with the web apps. */

import { plural } from './plurals.js';

/** The languages mails and pages are written in; a person's preference picks one. */
export const LANGUAGES = ['en', 'hi', 'te'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_MESSAGE = 'Choose English (en), Hindi (hi) or Telugu (te).';

export const EMAIL_MAX_LENGTH = 254;

export const NEWSLETTER = {
  email: { required: 'Email is required.', invalid: 'Please enter a valid email address.' },
  accepted: 'Please check your inbox and confirm your subscription.',
  /** At most one confirmation mail per address in this window, however often it subscribes. */
  confirmationIntervalMinutes: 60,
} as const;

export const CONTACT_FORM = {
  name: { required: 'Name is required.', maxLength: 100 },
  email: { required: 'Email is required.', invalid: 'Please enter a valid email address.' },
  mobile: { invalid: 'Enter Valid Mobile no' },
  msg: { required: 'Message is required.', maxLength: 2000 },
  submitted: 'Form Submitted',
} as const;

export const CAMPAIGN_FORM = {
  subject: { required: 'Subject is required.', maxLength: 200 },
  body: { required: 'Message is required.', maxLength: 20_000 },
  featuredCouponIds: { invalid: 'Featured coupons are up to 6 coupon ids.', max: 6 },
  notDraft: 'This campaign has already been sent and cannot be changed.',
  alreadySent: 'This campaign has already been sent.',
} as const;

export const CASHBACK_STATES = ['pending', 'confirmed', 'paid', 'cancelled'] as const;
export type CashbackState = (typeof CASHBACK_STATES)[number];

export const POSTBACK = {
  badSignature: 'Missing or invalid signature.',
  purchaseReference: 'A purchase reference of up to 100 characters is required.',
  couponId: 'A coupon id is required.',
  referralCode: 'Send the shopper as referralCode.',
  unknownShopper: 'No shopper has this referral code.',
  purchaseType: 'A purchase type of up to 50 characters is required.',
  purchaseAmount: 'The purchase amount is rupees with up to 2 decimals.',
  zeroAmount: 'The purchase amount must be more than ₹0.',
  purchasedAt: 'The purchase time is an ISO 8601 timestamp, not in the future.',
  couponNotLive: 'This coupon was not live at the time of the purchase.',
  clickId: 'The click id is the 22-character id your site received in its sub-id parameter.',
  unknownClick: 'No click has this id.',
  clickCouponMismatch: 'This click was for another coupon.',
  clickExpired: (days: number) =>
    `This purchase came more than ${plural('en', days, { one: '1 day', other: `${days} days` })} (the cookie window) after the click.`,
  purchaseBeforeClick: 'This purchase was made before the click.',
  anonymousClick: 'This click was made by a visitor who was not signed in: there is no shopper to credit.',
  category: 'The category is the name of the product category bought, up to 100 characters.',
  /** Signed by the store, but the store may not report purchases now: nothing is recorded. */
  merchantUnconfirmed: 'This store has not confirmed its account: its purchases are not recorded.',
  merchantHidden: 'This store is hidden: its purchases are not recorded.',
} as const;

/**
 * A referral bonus follows the purchase that earns it: pending while it is, confirmed with it,
 * cancelled with it. A purchase whose bonus its referrer already has cannot be cancelled.
 */
export const REFERRAL_BONUS = {
  purchaseNotConfirmed: 'A referral bonus stays pending until the purchase that earned it is confirmed.',
  bonusPaid: 'The referral bonus this purchase earned is already paid: the purchase cannot be cancelled.',
  bonusWithdrawn:
    'The referral bonus this purchase earned is already in its referrer’s payout: the purchase cannot be cancelled.',
} as const;

export const EARNINGS = {
  notFound: 'Earning not found.',
  illegalTransition: (from: string, to: string) => `A ${from} earning cannot become ${to}.`,
  perPage: 20,
} as const;

/** Accepted public forms per client address and window: strangers' inboxes and the admins' are not a target. */
export const FORM_LIMITS = {
  newsletter: { perWindow: 20, windowSeconds: 600 },
  contact: { perWindow: 5, windowSeconds: 600 },
  message: 'Too many submissions from your network. Please try again in a few minutes.',
} as const;
