import { compile } from 'html-to-text';
import { FEED_ENDED_STATUSES } from '../../rules/feeds.js';
import type { FeedLanguage } from './feed-row.js';

/**
 * Reading a feed's values, whatever the network: text that may hold HTML, dates in the forms the
 * networks write them, yes/no flags, numbers with units. Each returns null for "not given" and
 * `undefined` for "given but unreadable" where the caller refuses the row for it.
 */

/**
 * HTML to plain text with html-to-text (htmlparser2 underneath, so entities are decoded as a
 * browser would): script and style dropped with their content, links reduced to their words,
 * images dropped. The result is text, never markup: the site escapes it like any other text.
 */
const htmlToText = compile({
  wordwrap: false,
  decodeEntities: true,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'noscript', format: 'skip' },
    { selector: 'iframe', format: 'skip' },
    { selector: 'head', format: 'skip' },
    ...(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const).map((selector) => ({
      selector,
      options: { uppercase: false },
    })),
  ],
});

// Control characters (PostgreSQL refuses NUL; the others only break a line of text) and lone
// surrogates (half a character, which no encoding can store).
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/gu;

/**
 * A feed's text as one line of plain text: HTML and entities reduced (only when the text has a
 * `<` or `&`, so plain text costs nothing), control characters and runs of spaces collapsed.
 */
export function plainText(value: unknown): string {
  const raw = scalarText(value);
  if (raw === null) return '';
  const text = /[<&]/.test(raw) ? htmlToText(raw) : raw;
  return text.replace(UNPRINTABLE, ' ').replace(/\s+/g, ' ').trim();
}

/** A value as text when it is a string or a number; objects and arrays are not text. */
export function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return String(value);
  return null;
}

/** A trimmed identifier (row, advertiser); null when absent or empty. */
export function identifier(value: unknown): string | null {
  const text = plainText(value);
  return text === '' ? null : text;
}

// What networks write in the code field of a deal that needs none.
const NO_CODE = /^(not required|no code( required)?|no coupon( code)?( required)?|n\/?a|none|null|-+)$/i;

/** A coupon code; null when the row is a deal (empty, or a network's "no code needed"). */
export function couponCode(value: unknown): string | null {
  const text = plainText(value);
  return text === '' || NO_CODE.test(text) ? null : text;
}

/** India's offset from UTC, applied to dates given without one (the market's own clock). */
const MARKET_OFFSET = '+05:30';

/**
 * A date as the networks write it: ISO 8601 with or without a zone (`2026-12-31T23:59:59Z`),
 * `2026-12-31 23:59:59` (Admitad), a bare day `2026-12-31`, India's day-first `31-12-2026` or
 * `31/12/2026`, or Unix seconds. Times without a zone are India's. A bare day is its start for a
 * start date and its end (midnight after it) for an end date, as an offer is usable all that day.
 * `0000-00-00` (how PHP exports write "no date") and empty values are null; anything else that is
 * not a real calendar date is `undefined`.
 */
export function feedDate(value: unknown, edge: 'start' | 'end'): Date | null | undefined {
  if (value === null || value === undefined) return null;
  const text = plainText(value);
  if (text === '' || /^0{4}-0{2}-0{2}([ T]0{2}:0{2}(:0{2})?)?$/.test(text)) return null;
  if (/^\d{9,10}$/.test(text)) return new Date(Number(text) * 1000);
  let day: [string, string, string] | undefined;
  let rest = '';
  const isoDay = /^(\d{4})-(\d{2})-(\d{2})(.*)$/.exec(text);
  const indianDay = /^(\d{1,2})[-/](\d{1,2})[-/](\d{4})(.*)$/.exec(text);
  if (isoDay) {
    day = [isoDay[1]!, isoDay[2]!, isoDay[3]!];
    rest = isoDay[4]!;
  } else if (indianDay) {
    day = [indianDay[3]!, indianDay[2]!.padStart(2, '0'), indianDay[1]!.padStart(2, '0')];
    rest = indianDay[4]!;
  } else return undefined;
  const [year, month, date] = day;
  const probe = new Date(Date.UTC(Number(year), Number(month) - 1, Number(date)));
  if (
    probe.getUTCFullYear() !== Number(year) ||
    probe.getUTCMonth() !== Number(month) - 1 ||
    probe.getUTCDate() !== Number(date)
  )
    return undefined;
  if (rest === '') {
    const start = new Date(`${year}-${month}-${date}T00:00:00${MARKET_OFFSET}`);
    return edge === 'start' ? start : new Date(start.getTime() + 86_400_000);
  }
  const time = /^[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,6})?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(rest);
  if (!time) return undefined;
  const [, hours, minutes, seconds = '00', fraction = '', zone] = time;
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) return undefined;
  const offset = zone
    ? zone.toUpperCase() === 'Z'
      ? 'Z'
      : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')
    : MARKET_OFFSET;
  const parsed = new Date(
    `${year}-${month}-${date}T${hours}:${minutes}:${seconds}${fraction.slice(0, 4)}${offset}`,
  );
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

/** Yes/no as feeds write it: a boolean, 0/1, "true"/"false", "yes"/"no", "Y"/"N". */
export function flag(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  const text = plainText(value).toLowerCase();
  return ['1', 'true', 'yes', 'y'].includes(text);
}

/** Whether a row's status says its coupon has ended. */
export function endedStatus(value: unknown): boolean {
  return (FEED_ENDED_STATUSES as readonly string[]).includes(plainText(value).toLowerCase());
}

/**
 * The network's category names: an array of names or of `{id, name}`, or a comma-separated
 * string. Names are trimmed, empty ones dropped and repeats kept once.
 */
export function categoryNames(value: unknown): string[] {
  const items = Array.isArray(value)
    ? value.map((item) =>
        item !== null && typeof item === 'object' ? (item as Record<string, unknown>).name : item,
      )
    : (scalarText(value) ?? '').split(',');
  const names = items.map(plainText).filter((name) => name !== '');
  return [...new Set(names)];
}

/** An http(s) address; null when absent, `undefined` when given but not one. */
export function webAddress(value: unknown): string | null | undefined {
  const text = scalarText(value)?.trim() ?? '';
  if (text === '') return null;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
      ? url.toString()
      : undefined;
  } catch {
    return undefined;
  }
}

const LANGUAGE_NAMES: Record<string, FeedLanguage> = {
  en: 'en',
  eng: 'en',
  english: 'en',
  hi: 'hi',
  hin: 'hi',
  hindi: 'hi',
  te: 'te',
  tel: 'te',
  telugu: 'te',
};

/**
 * A row's language: a code (`hi`, `hi-IN`, `hi_IN`) or name (`Hindi`); English when not given;
 * `undefined` for any other language, which the site does not show.
 */
export function language(value: unknown): FeedLanguage | undefined {
  const text = plainText(value).toLowerCase();
  if (text === '') return 'en';
  return LANGUAGE_NAMES[text.split(/[-_]/)[0]!];
}

/**
 * An offer's value: "10%", "Up to 50% off", "₹500", "Rs. 500", "500 INR", or a number with a
 * type given apart ("percent"/"percentage"/"%", "flat"/"fixed"/"amount"/"price off"). A
 * percentage must be 1-100 and an amount above 0; anything else is null (the card leads with the
 * title then).
 */
export function offerValue(
  value: unknown,
  type?: unknown,
): { value: number; type: 'percent' | 'flat' } | null {
  const text = plainText(value);
  // Thousands separated the Indian way (1,50,000) or the Western one (150,000).
  const number = /\d[\d,]*(?:\.\d+)?/.exec(text);
  if (!number) return null;
  const amount = Number(number[0].replace(/,/g, ''));
  if (!Number.isFinite(amount) || amount <= 0) return null;
  const named = plainText(type).toLowerCase();
  let kind: 'percent' | 'flat' | null = null;
  if (/%|percent/.test(text) || /%|percent/.test(named)) kind = 'percent';
  else if (/₹|rs\.?|inr|rupee/i.test(text) || /flat|fixed|amount|price|rupee|inr|rs/.test(named))
    kind = 'flat';
  if (kind === null) return null;
  if (kind === 'percent' && amount > 100) return null;
  return { value: amount, type: kind };
}
