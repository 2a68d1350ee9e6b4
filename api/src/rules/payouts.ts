/**
 * Payouts of confirmed cashback to a UPI ID or a bank account: patterns, limits and messages,
 * shared by the API, the public site's form and the back-office's payout queue. The smallest
 * payout is a setting (`PAYOUT_MIN_RUPEES`); the API tells the web apps its value with the balance.
 */

export const PAYOUT_STATES = ['requested', 'processing', 'paid', 'failed'] as const;
export type PayoutState = (typeof PAYOUT_STATES)[number];

export const PAYOUT_METHODS = ['upi', 'bank'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

/** States whose amount is taken from the balance; a failed payout gives it back. */
export const PAYOUT_HOLDING_STATES: readonly PayoutState[] = ['requested', 'processing', 'paid'];

/** Payouts still to be paid: what the back-office's queue shows first. */
export const OPEN_PAYOUT_STATES: readonly PayoutState[] = ['requested', 'processing'];

/** The filter value of the queue that means requested or processing. */
export const OPEN_PAYOUTS_FILTER = 'open';

export const PAYOUT_RULES = {
  /** Rupees with up to 2 decimals, as typed ("250", "1299.5"). */
  amount: /^\d{1,9}(\.\d{1,2})?$/,
  /** A UPI ID (virtual payment address), lower case: `name@bank`, as NPCI's apps show them. */
  upiId: /^[a-z0-9][a-z0-9._-]{1,254}@[a-z][a-z0-9]{1,63}$/,
  upiIdMaxLength: 320,
  /** Indian bank account numbers are 9 to 18 digits. */
  accountNumber: /^\d{9,18}$/,
  /** The branch's IFSC: four letters of the bank, a zero, six letters or digits of the branch. */
  ifsc: /^[A-Z]{4}0[A-Z0-9]{6}$/,
  accountHolderNameMaxLength: 100,
  /** The bank's transfer reference (UTR, IMPS or NEFT reference): letters and digits. */
  bankReference: /^[A-Za-z0-9]{6,50}$/,
  reasonMaxLength: 500,
  /** Most payouts one bulk "mark paid" may name. */
  bulkMax: 100,
  /** A shopper's payouts shown per page. */
  perPage: 20,
} as const;

export const PAYOUT = {
  amount: {
    required: 'Enter the amount to withdraw.',
    invalid: 'Enter the amount in rupees, with up to 2 decimals.',
    zero: 'The amount must be more than ₹0.',
    belowMinimum: 'The amount is below the minimum payout.',
    aboveBalance: 'The amount is more than your available balance.',
  },
  destination: {
    required: 'Enter a UPI ID, or a bank account number and IFSC.',
    both: 'Give either a UPI ID or a bank account, not both.',
  },
  upiId: {
    required: 'Enter your UPI ID.',
    invalid: 'Enter a UPI ID like name@bank.',
  },
  accountNumber: {
    required: 'Enter the bank account number.',
    invalid: 'The account number is 9 to 18 digits.',
  },
  ifsc: {
    required: 'Enter the IFSC of the branch.',
    invalid: 'Enter an IFSC like SBIN0001234: 4 letters, a zero, then 6 letters or digits.',
  },
  accountHolderName: {
    invalid: `The account holder's name is at most ${PAYOUT_RULES.accountHolderNameMaxLength} characters.`,
  },
  bankReference: {
    required: 'The bank reference of the transfer is required.',
    invalid: 'The bank reference is 6 to 50 letters or digits.',
    duplicate: 'This bank reference is already recorded on another payout.',
    repeated: 'Each payout needs its own bank reference.',
  },
  reason: {
    required: 'A reason is required to mark a payout failed.',
    tooLong: `The reason is at most ${PAYOUT_RULES.reasonMaxLength} characters.`,
  },
  bulk: {
    invalid: `Send payouts as a list of 1 to ${PAYOUT_RULES.bulkMax} entries, each with an id and a bank reference.`,
    repeatedId: 'A payout is named twice.',
  },
  requested: 'Your payout request has been received.',
  notFound: 'Payout not found.',
  illegalTransition: (from: string, to: string) => `A ${from} payout cannot become ${to}.`,
  /** A refusal within a bulk action, naming the payout. */
  aboutPayout: (id: number, message: string) => `Payout #${id}: ${message}`,
  /** An earning can leave "confirmed" only while the shopper's payouts stay covered. */
  earningWithdrawn: 'This cashback is already part of the shopper’s payouts and cannot change now.',
} as const;

/** UPI IDs are case-insensitive; kept in lower case. */
export const normaliseUpiId = (value: string) => value.trim().toLowerCase();

/** Account numbers as people type them ("1234 5678 9012"): the digits alone. */
export const normaliseAccountNumber = (value: string) => value.replace(/[\s-]/g, '');

/** IFSCs are upper case; typed in any case. */
export const normaliseIfsc = (value: string) => value.trim().toUpperCase();

/** What any screen shows of a bank account number: its last four digits. */
export const maskAccountNumber = (accountNumber: string) => `XXXX${accountNumber.slice(-4)}`;
