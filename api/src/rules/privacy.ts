/**
 * Personal data: the kinds of data requests the admins' log records, shared by the API and the
 * back-office's log screen.
 */

/** What a person asked of their data: a copy of it, its deletion, or a grievance about it. */
export const DATA_REQUEST_KINDS = ['export', 'deletion', 'grievance'] as const;
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number];

/** Who took a step of a data request: the person, an admin (named by id), or a scheduled job. */
export const DATA_REQUEST_ACTORS = ['person', 'admin', 'system'] as const;
export type DataRequestActor = (typeof DATA_REQUEST_ACTORS)[number];

/** Where a request to delete an account stands: asked, confirmed by mail (erasure waits), or done. */
export const DELETION_STATES = ['awaiting_confirmation', 'scheduled', 'cancelled', 'erased'] as const;
export type DeletionState = (typeof DELETION_STATES)[number];

/**
 * Deleting an account: the confirmation link's life, and every message the person reads, shared by
 * the API, the public site and the back-office (the site translates them by their English text).
 */
export const ACCOUNT_DELETION = {
  /** How long the mailed confirmation link works. */
  confirmValidForHours: 24,
  /** What must be finished first, each refusing the request (409) with what to do. */
  refused: {
    pendingPayout: 'You have a payout on its way. Wait until it is paid (or has failed), then ask again.',
    openClaim: 'You have a missing-cashback claim still open. Wait for its answer, then ask again.',
    unpaidMoney:
      'You have confirmed cashback not yet paid out. Request a payout first, or tick the box to give it up.',
    merchantUnpaidEarnings:
      'Shoppers still have cashback from your store that is not yet paid. Your account can be deleted once it is settled.',
    alreadyAsked: 'Your account is already being deleted.',
  },
  giveUpUnpaidMoney: { invalid: 'giveUpUnpaidMoney must be true or false.' },
  requested: 'We have sent a link to your email address. Open it within 24 hours to confirm the deletion.',
  confirmed: 'Your account is scheduled for deletion. You have been signed out everywhere.',
  cancelled: 'Your account will not be deleted.',
  invalidLink: 'This link is invalid, used or expired.',
  nothingToCancel: 'Your account is not scheduled for deletion.',
} as const;
