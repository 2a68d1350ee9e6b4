import { PASSWORD_RESET, REGISTRATION_LIMIT } from './accounts.js';
import { REVEAL_LIMITS } from './coupons.js';
import { FORM_LIMITS } from './engagement.js';
import { DATA_EXPORT, GRIEVANCE_FORM } from './privacy.js';

const WAIT_A_MINUTE = 'Too many requests from your network. Please wait a minute and try again.';

/**
 * Requests one client address (an IPv6 network counts as one address per /64) may make to a class
 * of routes in a window before it is asked to wait: 429 with `Retry-After`. Counted in Redis, so
 * every API process shares the counts. Each class names the routes it covers by method and route
 * pattern. Kept answers of the hot reads (a coupon list, suggestions already asked for) are sent
 * before routing and never counted: only what costs the server work is.
 *
 * Click-outs are never limited (a shopper must reach the store); sign-in has throttles of its own
 * (per account and address) and forms a quota of accepted submissions besides these.
 */
export const RATE_LIMITS = {
  reveal: {
    routes: ['POST /api/coupons/:id/reveal'],
    points: REVEAL_LIMITS.perMinute,
    seconds: 60,
    message: REVEAL_LIMITS.message,
  },
  vote: {
    routes: ['POST /api/coupons/:id/votes'],
    points: 20,
    seconds: 60,
    message: 'Too many votes from your network. Please wait a minute and try again.',
  },
  forms: {
    routes: [
      'POST /api/newsletter',
      'POST /api/contact',
      'POST /api/auth/users/register',
      'POST /api/auth/merchants/register',
      'POST /api/auth/password/forgot',
      'POST /api/grievances',
    ],
    points: 60,
    seconds: 600,
    message: FORM_LIMITS.message,
  },
  suggestions: {
    routes: ['GET /api/search/suggest'],
    points: 120,
    seconds: 60,
    message: 'Too many searches from your network. Please wait a minute and try again.',
  },
  lists: {
    routes: ['GET /api/coupons'],
    points: 300,
    seconds: 60,
    message: WAIT_A_MINUTE,
  },
  images: {
    routes: ['GET /api/media/:id'],
    points: 600,
    seconds: 60,
    message: WAIT_A_MINUTE,
  },
  /** Newsletter subscriptions accepted (valid, counted by the form after validation). */
  newsletter: {
    routes: [],
    points: FORM_LIMITS.newsletter.perWindow,
    seconds: FORM_LIMITS.newsletter.windowSeconds,
    message: FORM_LIMITS.message,
  },
  /** Contact messages accepted. */
  contact: {
    routes: [],
    points: FORM_LIMITS.contact.perWindow,
    seconds: FORM_LIMITS.contact.windowSeconds,
    message: FORM_LIMITS.message,
  },
  /** Registrations accepted for checking, per address. */
  registration: {
    routes: [],
    points: REGISTRATION_LIMIT.perWindow,
    seconds: REGISTRATION_LIMIT.windowSeconds,
    message: REGISTRATION_LIMIT.message,
  },
  /** Password-recovery mails per account (email and role), whether or not the account exists. */
  passwordRecovery: {
    routes: [],
    points: PASSWORD_RESET.perWindow,
    seconds: PASSWORD_RESET.windowSeconds,
    message: PASSWORD_RESET.tooMany,
  },
  /** Grievances accepted, per address (signed in or not). */
  grievance: {
    routes: [],
    points: GRIEVANCE_FORM.perWindow,
    seconds: GRIEVANCE_FORM.windowSeconds,
    message: GRIEVANCE_FORM.tooMany,
  },
  /** Downloads of a person's data: counted per account and per address (a whole copy each). */
  dataExport: {
    routes: [],
    points: DATA_EXPORT.perWindow,
    seconds: DATA_EXPORT.windowSeconds,
    message: DATA_EXPORT.tooMany,
  },
} as const satisfies Record<string, RateLimit>;

export interface RateLimit {
  /** `METHOD /path` as the route is declared, parameters as `:name`. */
  routes: readonly string[];
  /** Requests allowed per window. */
  points: number;
  /** The window, from the address's first request in it. */
  seconds: number;
  message: string;
}

export type RateLimitClass = keyof typeof RATE_LIMITS;

/**
 * Anonymous click-outs from one address to one coupon within this many seconds are one click:
 * the later ones go to the store with the first one's click id (`CLICK_OUT_WINDOW_SECONDS`).
 */
export const CLICK_OUT_WINDOW_SECONDS = 30 * 60;
