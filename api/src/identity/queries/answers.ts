/**
 * Accounts' answers about themselves, as JSON carries them (dates as ISO strings). Types only and
 * without dependencies, so the web apps import them (type-only) instead of copying them.
 */
import type { Language } from '../../rules/engagement.js';

export type Role = 'user' | 'merchant' | 'admin';

/** Who is signed in, as `GET /api/auth/me` answers it. */
export interface Me {
  role: Role;
  id: number;
  name: string;
}

/** A shopper's own account as `GET /api/me/profile` answers it. */
export interface UserProfile {
  userName: string;
  mobileNumber: string;
  emailAddress: string;
  address: string | null;
  referralCode: string;
  language: Language;
}

/** A merchant's own account as `GET /api/merchant/profile` answers it. */
export interface MerchantProfile {
  merchantId: number;
  merchantName: string;
  brandName: string;
  industry: string;
  category: string;
  address: string;
  email: string;
  mobile: string;
  merchantUrl: string;
  userName: string;
  referralCode: string;
  isEmailConfirmed: boolean;
  registeredOn: string;
  language: Language;
}

/** One of the account's live sessions (`GET /api/me/sessions`, `GET /api/merchant/sessions`). */
export interface SessionSummary {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  userAgent: string | null;
  /** Signed in with a bearer token (an API client) rather than a browser's cookies. */
  apiClient: boolean;
  /** The session of the caller. */
  current: boolean;
}

/** A shopper's or merchant's referral invitation (`GET /api/me/referral` and the merchant's). */
export interface ReferralInvitation {
  code: string;
  /** The public registration page with the code filled in. */
  link: string;
  message: string;
  /** Opens a WhatsApp chat (with the given number, or a contact of the sender's choice). */
  whatsappUrl: string;
}
