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

/** A mapped CSV's separators: comma, semicolon, tab and pipe, as networks' exports use them. */
export const FEED_CSV_SEPARATORS = [',', ';', '\t', '|'] as const;
export type FeedCsvSeparator = (typeof FEED_CSV_SEPARATORS)[number];

/** Which column of a mapped CSV fills each field (by its header), and how cells are separated. */
export interface FeedCsvMapping {
  columns: Partial<Record<FeedField, string>>;
  separator: FeedCsvSeparator;
}

/**
 * How a fetched feed proves who asks: a header (an API key) or HTTP basic authentication. Written
 * by admins and never shown again: answers say only which kind is set.
 */
export const FEED_CREDENTIAL_KINDS = ['header', 'basic'] as const;
export type FeedCredentialKind = (typeof FEED_CREDENTIAL_KINDS)[number];

/** Where a run stands. A run that would end over half of a source's live coupons waits for an admin. */
export const FEED_RUN_STATUSES = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'waiting-for-admin',
  'discarded',
] as const;
export type FeedRunStatus = (typeof FEED_RUN_STATUSES)[number];

/** Runs not over yet: a source has at most one, so runs of a source never overlap. */
export const OPEN_FEED_RUN_STATUSES: readonly FeedRunStatus[] = ['queued', 'running', 'waiting-for-admin'];

/** What started a run: the source's schedule, an admin's "Run now", or an admin's upload. */
export const FEED_RUN_TRIGGERS = ['scheduled', 'manual', 'upload'] as const;
export type FeedRunTrigger = (typeof FEED_RUN_TRIGGERS)[number];

/** The limits of a feed source's form. */
export const FEED_SOURCE_LIMITS = {
  nameMax: 100,
  urlMax: 2000,
  /** A column's header in a mapped CSV. */
  columnMax: 100,
  credentialNameMax: 100,
  credentialValueMax: 2000,
  /** The parameter of a network's tracking link that carries our click id. */
  subIdParam: /^[A-Za-z0-9_-]{1,32}$/,
  defaultSubIdParam: 'subid',
} as const;

/** The back-office's and the API's words for a feed source's form. */
export const FEED_SOURCE_MESSAGES = {
  invalid: 'Please correct the feed source.',
  notFound: 'Feed source not found.',
  nameRequired: 'Give the feed source a name.',
  nameTaken: 'A feed source with this name exists.',
  format: `The format is one of ${FEED_FORMATS.join(', ')}.`,
  url: 'The feed address is an http:// or https:// URL.',
  schedule: `The schedule is every ${FEED_SCHEDULES_MINUTES.join(', ')} minutes, or none to run it only on demand.`,
  scheduleNeedsUrl: 'Only a feed fetched from an address runs on a schedule; an uploaded feed has none.',
  credentialNeedsUrl: 'A credential is sent to the feed address; an uploaded feed has none.',
  credentialKind: 'The credential is a header (name and value) or basic (username and password).',
  credentialHeaderName: 'Give the header a name of letters, digits and dashes.',
  credentialValue: 'Give the credential a value.',
  credentialUsername: 'Give the username of the basic credential.',
  credentialPassword: 'Give the password of the basic credential.',
  mode: 'A feed is full (what it leaves out has ended) or incremental (it lists changes only).',
  slot: 'Choose a slot that exists.',
  noFreeSlot: 'There is no free slot to place the feed’s coupons in: choose a slot.',
  reviewPolicy: 'New coupons are published at once or sent to the review queue.',
  mappingRequired: 'A mapped CSV needs the column of each of rowId, advertiserId and title.',
  mappingField: `Map only these fields: ${FEED_FIELDS.join(', ')}.`,
  mappingColumn: 'Name each mapped column by its header, in at most 100 characters.',
  separator: 'The separator is a comma, a semicolon, a tab or a pipe.',
  subIdParam: 'The sub-id parameter is 1 to 32 letters, digits, "-" or "_".',
  enabled: 'Enabled is true or false.',
  hasRuns: 'This feed source has runs and cannot be deleted; disable it instead.',
} as const;

/** The words of a source's runs. */
export const FEED_RUN_MESSAGES = {
  notFound: 'Feed run not found.',
  fileRequired: 'This feed source has no address: upload the feed as a file.',
  fileEmpty: 'The uploaded feed is empty.',
  alreadyOpen: 'A run of this feed source is already queued, running or waiting for an admin.',
  notWaiting: 'Only a run waiting for an admin can be accepted or discarded.',
} as const;

/** A source's credential as the fetcher sends it (kept out of every answer, log and event). */
export type FeedCredential =
  | { kind: 'header'; name: string; value: string }
  | { kind: 'basic'; username: string; password: string };

/** The words of networks' advertisers, the stores they map to, and networks' categories. */
export const FEED_ADVERTISER_MESSAGES = {
  invalid: 'Please correct the advertiser’s store.',
  notFound: 'Advertiser not found.',
  merchantRequired: 'Choose the store this advertiser is.',
  merchantUnknown: 'Choose a store that exists.',
  alreadyMapped: 'This advertiser is already mapped to a store; map it to another store instead.',
  storeName: 'Give the store a name of at most 100 characters.',
  siteUrl: 'The store’s site is an http:// or https:// address.',
  categoryNotFound: 'Network category not found.',
  categoryUnknown: 'Choose one of our categories, or none.',
  claimMerchantRequired: 'Choose the registered merchant who claims this store.',
  claimNotAccountless: 'Only a store without an account can be claimed.',
  claimMerchantInvalid:
    'The claiming merchant must be a registered account with no coupons or store of its own.',
} as const;

/** A store's name as an admin creates it for an advertiser (the store form's limit). */
export const FEED_ADVERTISER_LIMITS = { storeNameMaxLength: 100, siteUrlMaxLength: 2048 } as const;

/**
 * What a network's postback says of a purchase, each field named as the network names it: our
 * click id (the sub-id it carried on its tracking link), the network's order id, the order's
 * amount, the network's commission, the purchase's status, its currency, the product category
 * and the reason a declined purchase was declined. The first three are
 * required; the others may be unmapped (null). `statuses` holds the network's words for pending,
 * approved and declined, compared without case.
 */
export const FEED_POSTBACK_FIELDS = [
  'clickId',
  'orderId',
  'orderAmount',
  'commission',
  'status',
  'currency',
  'category',
  'reason',
] as const;
export type FeedPostbackField = (typeof FEED_POSTBACK_FIELDS)[number];
export const REQUIRED_FEED_POSTBACK_FIELDS = ['clickId', 'orderId', 'orderAmount'] as const;
type RequiredFeedPostbackField = (typeof REQUIRED_FEED_POSTBACK_FIELDS)[number];

/** A purchase's status as a network reports it: pending, approved (cashback confirmed) or declined (cancelled). */
export const FEED_POSTBACK_STATUSES = ['pending', 'approved', 'declined'] as const;
export type FeedPostbackStatus = (typeof FEED_POSTBACK_STATUSES)[number];

export interface FeedPostbackMapping {
  fields: Record<RequiredFeedPostbackField, string> &
    Record<Exclude<FeedPostbackField, RequiredFeedPostbackField>, string | null>;
  statuses: Record<FeedPostbackStatus, string[]>;
}

/** The fields most networks' postbacks use: the start for a source whose feed names no network. */
const GENERIC_POSTBACK: FeedPostbackMapping = {
  fields: {
    clickId: 'subid',
    orderId: 'order_id',
    orderAmount: 'sale_amount',
    commission: 'commission',
    status: 'status',
    currency: 'currency',
    category: null,
    reason: 'reason',
  },
  statuses: {
    pending: ['pending'],
    approved: ['approved', 'confirmed'],
    declined: ['declined', 'rejected', 'cancelled'],
  },
};

/**
 * Each format's postback fields as its network documents them. Admitad's postback URL macros are
 * `subid`, `order_id`, `order_sum`, `payment_sum` (the publisher's reward), `currency` and the
 * action's status (new, pending, accepted, rejected in its postback settings; approved, declined,
 * approved_but_stalled in its statistics); Cuelinks' postbacks carry `subid`, `transaction_id`, `sale_amount`,
 * `commission` and a status of pending, validated (then payable, paid) or rejected. LinkMyDeals
 * and a mapped CSV are coupon feeds, not networks: their sources get a generic mapping that the
 * admin adjusts to the network behind their links.
 */
export const FEED_POSTBACK_PRESETS: Record<FeedFormat, FeedPostbackMapping> = {
  'admitad-json': {
    fields: {
      clickId: 'subid',
      orderId: 'order_id',
      orderAmount: 'order_sum',
      commission: 'payment_sum',
      status: 'status',
      currency: 'currency',
      category: null,
      reason: null,
    },
    statuses: {
      pending: ['pending', 'new'],
      approved: ['approved', 'approved_but_stalled', 'accepted'],
      declined: ['declined', 'rejected'],
    },
  },
  'cuelinks-json': {
    fields: {
      clickId: 'subid',
      orderId: 'transaction_id',
      orderAmount: 'sale_amount',
      commission: 'commission',
      status: 'status',
      currency: null,
      category: null,
      reason: null,
    },
    statuses: {
      pending: ['pending'],
      approved: ['validated', 'payable', 'paid'],
      declined: ['rejected'],
    },
  },
  'linkmydeals-csv': GENERIC_POSTBACK,
  'mapped-csv': GENERIC_POSTBACK,
};

/**
 * A network's postback address: `/api/postbacks/networks/<source id>?token=<the source's postback
 * secret>`, called with GET (query parameters) or POST (a form or JSON body). `token` is ours, so
 * no mapped field may be named so.
 */
export const FEED_POSTBACK = {
  path: (sourceId: number) => `/api/postbacks/networks/${sourceId}`,
  pathPrefix: '/api/postbacks/networks/',
  tokenParam: 'token',
  /** A network's field name: letters, digits, `_`, `-` and `.`, as query parameters are named. */
  fieldName: /^[A-Za-z0-9_.-]{1,64}$/,
  statusWordMax: 50,
  statusWordsMax: 20,
  /** Longest value of a field read from a postback (an order id, a status word). */
  valueMax: 100,
  /** Longest reason a network gives for declining a purchase, kept with the cancelled earning. */
  reasonMax: 500,
  /** The only currency amounts are kept in; a postback naming another is refused. */
  currency: 'INR',
  /** What a network's purchase is recorded as (`purchase_type`). */
  purchaseType: 'online',
} as const;

/** The words of a source's postback mapping in its form, and of networks' postbacks. */
export const FEED_POSTBACK_MESSAGES = {
  mappingInvalid: 'The postback mapping names each field the network sends and its status words.',
  fieldRequired: (field: string) => `Give the name of the network’s field for ${field}.`,
  fieldName: 'A field name is 1 to 64 letters, digits, "_", "-" or "." (and not "token").',
  statusWords: `Give 1 to ${FEED_POSTBACK.statusWordsMax} status words of at most ${FEED_POSTBACK.statusWordMax} characters for each status.`,
  statusTwice: (word: string) => `The status word "${word}" is given for two statuses.`,
  badToken: 'Missing or invalid postback token.',
  unknownSource: 'Feed source not found.',
  clickId: 'The click id (our sub-id) is missing or not a click id.',
  unknownClick: 'No click has this id.',
  otherSourceClick: 'This click is not on a coupon of this feed source.',
  orderOtherClick: 'This order was reported before with another click.',
  orderId: 'The order id is required, in at most 100 characters.',
  orderAmount: 'The order amount is rupees with up to 2 decimals, more than ₹0.',
  commission: 'The commission is rupees with up to 2 decimals.',
  status: (words: readonly string[]) => `The status is one of: ${words.join(', ')}.`,
  repeated: (field: string) => `The field ${field} is given more than once.`,
  currency: 'Only purchases in Indian rupees (INR) are recorded.',
  category: 'The category is a name of at most 100 characters.',
  reason: 'The reason is a text of at most 500 characters.',
  unsupportedBody: 'A postback is sent as query parameters, a form or a JSON object.',
} as const;
