/**
 * Click-outs (a visitor leaving for a merchant's site through a coupon) and the merchant's
 * tracking settings: limits, patterns and messages shared by the API and the back-office.
 */
import { OFFER_UNAVAILABLE } from './coupons.js';

/** A click id: 22 URL-safe characters (16 bytes, base64url), as merchants send it back. */
export const CLICK_ID = /^[A-Za-z0-9_-]{22}$/;

export const TRACKING = {
  subIdParam: {
    /** The query parameter most affiliate tracking reads when the merchant names none. */
    default: 'subid',
    maxLength: 32,
    /** Letters, digits, underscore and hyphen: safe as a query parameter's name in any URL. */
    pattern: /^[A-Za-z0-9_-]{1,32}$/,
    required: 'A sub-id parameter is required.',
    invalid: 'The sub-id parameter is 1 to 32 letters, digits, _ or -.',
  },
  cookieWindowDays: {
    default: 30,
    min: 1,
    max: 90,
    required: 'A cookie window is required.',
    invalid: 'The cookie window is a whole number of days from 1 to 90.',
  },
} as const;

/** The address of a coupon's click-out (`GET /api/out/:couponId`), which the public site links to. */
export const clickOutPath = (couponId: number) => `/api/out/${couponId}`;

export const CLICK_OUT = {
  /** A coupon that cannot be followed to its store: unknown, not live, or without an address. */
  unavailable: OFFER_UNAVAILABLE,
  /** HEAD (a link checker, a chat preview) would record a click no one made. */
  getOnly: 'Open this link to go to the store.',
} as const;

/** The merchant's tracking settings, as `GET /api/merchant/tracking` answers them. */
export interface TrackingSettings {
  subIdParam: string;
  cookieWindowDays: number;
}
