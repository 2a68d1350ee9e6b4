import { COUPON_CODE, COUPON_FORM } from '../../rules/coupons.js';
import { FEED_REJECTIONS, type FeedRejectionReason } from '../../rules/feeds.js';
import type { FeedLanguage, FeedRejection, FeedRow } from './feed-row.js';
import {
  categoryNames,
  couponCode,
  feedDate,
  flag,
  identifier,
  language,
  plainText,
  webAddress,
} from './fields.js';

/** A record's values picked out by its format, not yet read or checked. */
export interface RowCandidate {
  rowId: unknown;
  advertiserId: unknown;
  advertiserName: unknown;
  advertiserSite: unknown;
  code: unknown;
  title: unknown;
  description: unknown;
  terms?: unknown;
  startsAt: unknown;
  endsAt: unknown;
  ended: boolean;
  exclusive?: unknown;
  categories?: unknown;
  trackingUrl: unknown;
  language?: unknown;
  payout: FeedRow['payout'];
}

export const rejection = (
  line: number,
  rowId: string | null,
  reason: FeedRejectionReason,
): FeedRejection => ({
  line,
  rowId,
  reason,
  message: FEED_REJECTIONS[reason],
});

/** Length as the coupon form counts it: characters, not UTF-16 units. */
const length = (text: string) => {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
};

/**
 * Reads and checks a feed's rows by the merchant coupon's rules, remembering the ids seen so a
 * repeated one is refused. One per read of a feed.
 */
export class RowChecker {
  /** Row ids seen, with their language: a translation of a row may share its id. */
  private readonly seen = new Set<string>();

  constructor(private readonly now: Date = new Date()) {}

  check(line: number, candidate: RowCandidate): FeedRow | FeedRejection {
    const rowId = identifier(candidate.rowId);
    if (rowId === null) return rejection(line, null, 'missing-row-id');
    const ended = candidate.ended;
    const rowLanguage = language(candidate.language);
    if (rowLanguage === undefined && !ended) return rejection(line, rowId, 'unknown-language');
    const lang: FeedLanguage = rowLanguage ?? 'en';
    const key = `${lang}\u0000${rowId}`;
    if (this.seen.has(key)) return rejection(line, rowId, 'duplicate-row-id');
    this.seen.add(key);

    const advertiserId = identifier(candidate.advertiserId);
    const title = plainText(candidate.title);
    const description = plainText(candidate.description);
    const code = couponCode(candidate.code);
    const startsAt = feedDate(candidate.startsAt, 'start');
    const endsAt = feedDate(candidate.endsAt, 'end');
    const trackingUrl = webAddress(candidate.trackingUrl);

    if (!ended) {
      let reason: FeedRejectionReason | null = null;
      if (advertiserId === null) reason = 'missing-advertiser';
      else if (title === '') reason = 'missing-title';
      else if (length(title) > COUPON_FORM.title.maxLength) reason = 'title-too-long';
      else if (length(description) > COUPON_FORM.description.maxLength) reason = 'description-too-long';
      else if (code !== null && !COUPON_CODE.test(code)) reason = 'bad-code';
      else if (startsAt === undefined || endsAt === undefined) reason = 'bad-date';
      else if (startsAt !== null && endsAt !== null && endsAt <= startsAt) reason = 'end-before-start';
      else if (endsAt !== null && endsAt <= this.now) reason = 'ended-in-past';
      else if (trackingUrl === undefined) reason = 'bad-tracking-url';
      if (reason !== null) return rejection(line, rowId, reason);
    }

    const terms = plainText(candidate.terms);
    return {
      line,
      rowId,
      advertiser: {
        id: advertiserId ?? '',
        name: identifier(candidate.advertiserName),
        // A store's site is a nicety for creating the store: a bad one is left out, not refused.
        siteUrl: webAddress(candidate.advertiserSite) ?? null,
      },
      code: code !== null && COUPON_CODE.test(code) ? code : null,
      title,
      description,
      terms: terms === '' ? null : terms,
      startsAt: startsAt ?? null,
      endsAt: endsAt ?? null,
      ended,
      exclusive: flag(candidate.exclusive),
      categories: categoryNames(candidate.categories),
      trackingUrl: trackingUrl ?? null,
      language: lang,
      payout: candidate.payout,
    };
  }
}
