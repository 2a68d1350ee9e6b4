/**
 * Coupon feeds from affiliate networks and aggregators: the formats read, how often a source is
 * fetched, how its rows go live, and the fields a mapped CSV's columns may fill. Shared by the
 * API, the workers and the back-office.
 */

/** The feed formats: three networks' own, and a CSV whose columns an admin maps to fields. */
export const FEED_FORMATS = ['admitad-json', 'cuelinks-json', 'linkmydeals-csv', 'mapped-csv'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** How often a fetched source is imported, in minutes: every 15 minutes to daily. */
export const FEED_SCHEDULES_MINUTES = [15, 30, 60, 180, 360, 720, 1440] as const;

/**
 * `full`: the feed lists every live coupon of the source, so one missing from it has ended.
 * `incremental`: the feed lists changes only; a coupon ends when a row says so.
 */
export const FEED_MODES = ['full', 'incremental'] as const;
export type FeedMode = (typeof FEED_MODES)[number];

/**
 * `publish`: new coupons are approved into the source's slot by the import, as an admin's approval
 * would (slot capacity applies; what does not fit goes to review). `review`: new coupons wait in
 * the review queue.
 */
export const FEED_REVIEW_POLICIES = ['publish', 'review'] as const;
export type FeedReviewPolicy = (typeof FEED_REVIEW_POLICIES)[number];

/** The fields a mapped CSV's columns may fill; `rowId`, `advertiserId` and `title` are required. */
export const FEED_FIELDS = [
  'rowId',
  'advertiserId',
  'advertiserName',
  'advertiserSite',
  'code',
  'title',
  'description',
  'terms',
  'startsAt',
  'endsAt',
  'status',
  'exclusive',
  'categories',
  'trackingUrl',
  'language',
  'payout',
  'payoutType',
] as const;
export type FeedField = (typeof FEED_FIELDS)[number];
export const REQUIRED_FEED_FIELDS: readonly FeedField[] = ['rowId', 'advertiserId', 'title'];
