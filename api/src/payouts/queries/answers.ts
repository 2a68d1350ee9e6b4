/**
 * Payouts' answers, as JSON carries them (rupees as decimal strings, dates as ISO strings). Types
 * only and without dependencies, so the web apps import them (type-only) instead of copying them.
 */
import type { PayoutMethod, PayoutState } from '../../rules/payouts.js';

/** What the shopper may withdraw now, the smallest payout, and what is on its way or paid (`GET /api/me/balance`). */
export interface ShopperBalance {
  available: string;
  minimum: string;
  confirmed: string;
  inProgress: string;
  paidOut: string;
}

/** A payout as its shopper sees it: the account number shows its last four digits only. */
export interface ShopperPayout {
  id: number;
  amount: string;
  method: PayoutMethod;
  /** The UPI ID, or the account's last digits and IFSC. */
  destination: string;
  upiId: string | null;
  accountNumber: string | null;
  ifsc: string | null;
  accountHolderName: string | null;
  state: PayoutState;
  bankReference: string | null;
  failureReason: string | null;
  requestedAt: string;
  processingAt: string | null;
  paidAt: string | null;
  failedAt: string | null;
}

/** The shopper's payouts, newest first, a page at a time (`GET /api/me/payouts`). */
export interface ShopperPayoutsPage {
  payouts: ShopperPayout[];
  /** How many payouts the shopper has in all. */
  total: number;
  page: number;
  perPage: number;
}

/** A payout just asked for (`POST /api/me/payouts`), and the message that says so. */
export interface RequestedPayout extends ShopperPayout {
  message: string;
}

/** A payout as the admins' payout run sees it: whose, and the whole account number to pay into. */
export interface AdminPayout extends ShopperPayout {
  userId: number;
  userName: string;
  userEmail: string;
}
