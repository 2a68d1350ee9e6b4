import type { FeedRejectionReason } from '../../rules/feeds.js';

/** The languages a feed row's texts may be in. */
export type FeedLanguage = 'en' | 'hi' | 'te';

/** One coupon or deal as a feed gives it, its texts reduced to plain text and checked. */
export interface FeedRow {
  /** Record number in the feed (the CSV line, or the JSON array index + 1), for reports. */
  line: number;
  /** The network's own id of the row. */
  rowId: string;
  advertiser: { id: string; name: string | null; siteUrl: string | null };
  /** null: a deal without a code. */
  code: string | null;
  title: string;
  description: string;
  terms: string | null;
  startsAt: Date | null;
  /** null: open-ended, live while the feed lists it. */
  endsAt: Date | null;
  /**
   * The feed marks it expired, suspended, deleted or inactive. Such a row is read for its identity
   * alone: its other fields are kept where they read well and are otherwise empty, never a reason
   * to refuse the row (a bad title must not keep a coupon from ending).
   */
  ended: boolean;
  exclusive: boolean;
  /** The network's category names. */
  categories: string[];
  /** Where a click-out goes: goto_link, affiliate_url, smartlink. */
  trackingUrl: string | null;
  language: FeedLanguage;
  /**
   * The offer's value as the feed states it, a percentage (1-100) or a flat amount in rupees:
   * Admitad's `discount`, Cuelinks' `payout`/`payout_type`, LinkMyDeals' `offer`/`offer_value`.
   */
  payout: { value: number; type: 'percent' | 'flat' } | null;
}

/** A row that is not imported, with the line and reason shown in the run's report. */
export interface FeedRejection {
  line: number;
  rowId: string | null;
  reason: FeedRejectionReason;
  message: string;
}

export const isRejection = (entry: FeedRow | FeedRejection): entry is FeedRejection => 'reason' in entry;

/** How a fetch proves who is asking: a header (an API key) or HTTP basic authentication. */
export type FeedCredential =
  | { kind: 'header'; name: string; value: string }
  | { kind: 'basic'; username: string; password: string };

/**
 * Every failure of fetching or reading a feed. Its message is safe to store and show: it never
 * holds a credential, nor the feed's URL (whose query often carries an API key), only its host.
 */
export class FeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The feed could not be fetched: refused address, network error, HTTP error status, timeout. */
export class FeedFetchFailed extends FeedError {}

/** The feed is larger than the FEED_MAX_MB setting (counted after decompression too). */
export class FeedTooLarge extends FeedError {}

export const feedTooLarge = (maxBytes: number) =>
  new FeedTooLarge(`The feed is larger than ${Math.round(maxBytes / (1024 * 1024))} MB.`);

/** The body is not the format at all: not JSON, no header row, wrong envelope, broken gzip. */
export class FeedUnreadable extends FeedError {}
