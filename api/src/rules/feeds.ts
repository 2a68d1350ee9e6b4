import { COUPON_FORM } from './coupons.js';

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

/** The column separators a mapped CSV may use: comma (the default), semicolon or tab. */
export const CSV_SEPARATORS = [',', ';', '\t'] as const;
export type CsvSeparator = (typeof CSV_SEPARATORS)[number];

/**
 * A mapped CSV's columns: for each field, the header of the column that fills it (matched
 * exactly, else ignoring case), and the separator when it is not a comma.
 */
export type CsvMapping = Partial<Record<FeedField, string>> & { separator?: CsvSeparator };

/** Why a feed row is not imported; each with the message shown in the run's report. */
export const FEED_REJECTION_REASONS = [
  'not-a-record',
  'record-too-large',
  'missing-row-id',
  'duplicate-row-id',
  'missing-advertiser',
  'missing-title',
  'title-too-long',
  'description-too-long',
  'bad-code',
  'bad-date',
  'ended-in-past',
  'end-before-start',
  'bad-tracking-url',
  'unknown-language',
] as const;
export type FeedRejectionReason = (typeof FEED_REJECTION_REASONS)[number];

/** Largest record of a feed, in characters of its values together: anything longer is refused. */
export const FEED_RECORD_MAX_CHARS = 64 * 1024;

export const FEED_REJECTIONS: Record<FeedRejectionReason, string> = {
  'not-a-record': 'This entry is not a coupon record.',
  'record-too-large': `This record is longer than ${FEED_RECORD_MAX_CHARS / 1024} KB.`,
  'missing-row-id': 'The row has no id.',
  'duplicate-row-id': 'An earlier row of this feed has the same id and language.',
  'missing-advertiser': 'The row names no advertiser (store or campaign).',
  'missing-title': COUPON_FORM.title.required,
  'title-too-long': COUPON_FORM.title.tooLong,
  'description-too-long': COUPON_FORM.description.tooLong,
  'bad-code': COUPON_FORM.couponCode.invalid,
  'bad-date': 'Start Date and End Date must be valid dates.',
  'ended-in-past': 'End Date has passed.',
  'end-before-start': 'End Date must be after Start Date.',
  'bad-tracking-url': 'Tracking link must be a web address (http or https).',
  'unknown-language': 'Language must be English (en), Hindi (hi) or Telugu (te).',
};

/** Row statuses that say a coupon has ended (compared without case); any other status is live. */
export const FEED_ENDED_STATUSES = [
  'expired',
  'suspended',
  'deleted',
  'inactive',
  'disabled',
  'ended',
] as const;

/**
 * Fetching feeds: the defaults of the FEED_* settings. Feeds are large (a network's whole catalogue
 * in one file), so the limits are far above an image's.
 */
export const FEED_FETCH_DEFAULTS = {
  /** Largest feed, counted on the decompressed bytes too. */
  maxMegabytes: 200,
  /** From the request until the answer's headers (names, connection, the server's first answer). */
  connectTimeoutMs: 30_000,
  /** Longest wait for the next bytes of the body while the reader is ready for them. */
  idleTimeoutMs: 60_000,
  maxRedirects: 3,
} as const;
