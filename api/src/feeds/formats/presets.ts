import {
  FEED_CSV_SEPARATORS,
  FEED_FIELDS,
  FEED_SOURCE_MESSAGES,
  type FeedCsvMapping,
  type FeedField,
  REQUIRED_FEED_FIELDS,
} from '../../rules/feeds.js';
import { endedStatus, offerValue, plainText } from './fields.js';
import type { RowCandidate } from './row-check.js';

/**
 * Each format's fields, as the networks document them (checked against their API documentation
 * and public client code; the choices they leave open are in docs/decisions.md):
 *
 * - Admitad `GET /coupons/` (and `/coupons/website/{id}/`): `{results: [...], _meta: {count,
 *   limit, offset}}`. `species` is `promocode` or `action` (a deal: its `promocode` then reads
 *   "NOT REQUIRED" or is empty); `exclusive` a boolean; `campaign {id, name, site_url}`;
 *   `categories` `[{id, name}]`; `date_start`/`date_end` `YYYY-MM-DD HH:MM:SS` (the end may be
 *   null); `discount` text such as "10%" or "500 INR".
 * - Cuelinks `GET /api/v2/offers.json`: `{offers: [...], total_count}`, each with `coupon_code`
 *   (null or empty for a deal), `affiliate_url`, `start_date`/`end_date`, `categories` as an
 *   array, a comma string or null, and the campaign as `campaign_id`/`campaign_name` (older
 *   answers nest it as `campaign {id, name}`).
 * - LinkMyDeals/CouponAPI `getOffers` CSV: one row per offer, `type` `Code` or `Deal`, `status`
 *   `new`/`updated`/`suspended` (the last ends the coupon), `offer` the kind of value ("Percentage
 *   Off", "Price Off", ...) and `offer_value` its amount, dates `YYYY-MM-DD`, symbols written as
 *   HTML entities (`&#8377;` for ₹). `smartlink` is the tracked link; `url` the plain landing page,
 *   used when a row has no smartlink.
 */

type Fields = Record<string, unknown>;

const object = (value: unknown): Fields =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Fields) : {};

/** Admitad's coupons JSON: one record of `results`. */
export function admitadRow(record: Fields): RowCandidate {
  const campaign = object(record.campaign);
  const isDeal = plainText(record.species).toLowerCase() === 'action';
  return {
    rowId: record.id,
    advertiserId: campaign.id,
    advertiserName: campaign.name,
    advertiserSite: campaign.site_url,
    code: isDeal ? null : record.promocode,
    title: record.name,
    description: record.description,
    terms: record.terms,
    startsAt: record.date_start,
    endsAt: record.date_end,
    ended: endedStatus(record.status),
    exclusive: record.exclusive,
    categories: record.categories,
    trackingUrl: record.goto_link,
    language: record.language,
    payout: offerValue(record.discount),
  };
}

/** Cuelinks' offers JSON: one record of `offers`. */
export function cuelinksRow(record: Fields): RowCandidate {
  const campaign = object(record.campaign);
  const campaignName = typeof record.campaign === 'string' ? record.campaign : campaign.name;
  return {
    rowId: record.id,
    advertiserId: record.campaign_id ?? campaign.id,
    advertiserName: record.campaign_name ?? campaignName,
    advertiserSite: record.campaign_url ?? campaign.url ?? campaign.site_url,
    code: record.coupon_code,
    title: record.title,
    description: record.description,
    terms: record.terms,
    startsAt: record.start_date,
    endsAt: record.end_date,
    ended: endedStatus(record.status),
    exclusive: record.exclusive,
    categories: record.categories,
    trackingUrl: record.affiliate_url,
    language: record.language,
    payout: offerValue(record.payout, record.payout_type),
  };
}

/** The columns a LinkMyDeals CSV must have to be one. */
export const LINKMYDEALS_REQUIRED_COLUMNS = ['lmd_id', 'store', 'title'];

/**
 * LinkMyDeals' CSV: one row. It gives no store id: the store's name, as LinkMyDeals writes it for
 * every offer of that store, is the advertiser's id.
 */
export function linkMyDealsRow(values: Fields): RowCandidate {
  const isDeal = plainText(values.type).toLowerCase() === 'deal';
  return {
    rowId: values.lmd_id,
    advertiserId: values.store,
    advertiserName: values.store,
    advertiserSite: values.merchant_homepage,
    code: isDeal ? null : values.code,
    title: values.title,
    description: values.description,
    terms: values.terms_and_conditions,
    startsAt: values.start_date,
    endsAt: values.end_date,
    ended: endedStatus(values.status),
    exclusive: values.publisher_exclusive ?? values.exclusive,
    categories: values.categories,
    trackingUrl: plainText(values.smartlink) !== '' ? values.smartlink : values.url,
    language: values.language,
    payout: offerValue(values.offer_value, values.offer),
  };
}

/**
 * What is wrong with an admin's CSV mapping, field by field (empty when it can be used): the
 * required fields mapped, known fields only, one column named once, a known separator.
 */
export function csvMappingProblems(mapping: unknown): Record<string, string> {
  const problems: Record<string, string> = {};
  if (mapping === null || typeof mapping !== 'object' || Array.isArray(mapping))
    return { mapping: 'The CSV mapping must name a column for each field it fills.' };
  const { columns, separator } = mapping as { columns?: unknown; separator?: unknown };
  if (separator !== undefined && !(FEED_CSV_SEPARATORS as readonly unknown[]).includes(separator))
    problems.separator = FEED_SOURCE_MESSAGES.separator;
  if (columns === null || typeof columns !== 'object' || Array.isArray(columns))
    return { ...problems, mapping: 'The CSV mapping must name a column for each field it fills.' };
  for (const [field, column] of Object.entries(columns as Record<string, unknown>)) {
    if (!(FEED_FIELDS as readonly string[]).includes(field))
      problems[field] = `"${field}" is not a feed field.`;
    else if (typeof column !== 'string' || column.trim() === '')
      problems[field] = 'Name the column that fills this field.';
  }
  for (const field of REQUIRED_FEED_FIELDS) {
    const column = (columns as Record<string, unknown>)[field];
    if (typeof column !== 'string' || column.trim() === '')
      problems[field] ??= `The ${field} field must be mapped.`;
  }
  return problems;
}

/**
 * Finds each mapped column in a header: by its exact name, else ignoring case and surrounding
 * spaces. Returns the header name per field, or the problem naming the columns not there.
 */
export function mappedColumns(
  mapping: FeedCsvMapping,
  header: string[],
): { columns: Partial<Record<FeedField, string>> } | { problem: string } {
  const columns: Partial<Record<FeedField, string>> = {};
  const missing: string[] = [];
  for (const field of FEED_FIELDS) {
    const wanted = mapping.columns[field]?.trim();
    if (!wanted) continue;
    const found =
      header.find((name) => name === wanted) ??
      header.find((name) => name.trim().toLowerCase() === wanted.toLowerCase());
    if (found === undefined) missing.push(wanted);
    else columns[field] = found;
  }
  return missing.length > 0
    ? {
        problem: `The feed has no column ${missing.map((name) => `"${name}"`).join(', ')} (see the CSV mapping).`,
      }
    : { columns };
}

/** A mapped CSV's row, by the columns found for each field. */
export function mappedRow(values: Fields, columns: Partial<Record<FeedField, string>>): RowCandidate {
  const value = (field: FeedField) => {
    const column = columns[field];
    return column === undefined ? undefined : values[column];
  };
  return {
    rowId: value('rowId'),
    advertiserId: value('advertiserId'),
    advertiserName: value('advertiserName'),
    advertiserSite: value('advertiserSite'),
    code: value('code'),
    title: value('title'),
    description: value('description'),
    terms: value('terms'),
    startsAt: value('startsAt'),
    endsAt: value('endsAt'),
    ended: endedStatus(value('status')),
    exclusive: value('exclusive'),
    categories: value('categories'),
    trackingUrl: value('trackingUrl'),
    language: value('language'),
    payout: offerValue(value('payout'), value('payoutType')),
  };
}
