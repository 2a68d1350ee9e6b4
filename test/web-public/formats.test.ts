import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { MARKET_TIME_ZONE } from '@offers/api/rules';
import { type Calendar, formatDate, formatMoney, formatShortDate } from '../../web-public/src/formats.js';
import { REPO_ROOT } from '../support/browser.js';

/**
 * The public site writes rupees and dates without `Intl` (building the first format costs a
 * phone tens of milliseconds while the page hydrates); what it writes must still be what `Intl`
 * writes for India's locales, as the server wrote it before.
 */

const LOCALES = [
  ['en', 'en-IN'],
  ['hi', 'hi-IN'],
  ['te', 'te-IN'],
] as const;

function calendarOf(lang: string): Calendar {
  const texts = JSON.parse(
    readFileSync(join(REPO_ROOT, 'web-public', 'src', 'locales', `${lang}.json`), 'utf8'),
  );
  return texts.calendar;
}

/** Instants around India's midnights through a leap year, and a spread of others. */
function instants(): Date[] {
  const found: Date[] = [];
  for (let day = Date.UTC(2027, 11, 31, 18, 30); day < Date.UTC(2029, 0, 1); day += 86_400_000) {
    found.push(new Date(day - 1), new Date(day), new Date(day + 3_600_000));
  }
  let seed = 11;
  for (let i = 0; i < 500; i += 1) {
    seed = (seed * 48_271) % 2_147_483_647;
    found.push(new Date(Date.UTC(2000, 0, 1) + (seed / 2_147_483_647) * 2e12));
  }
  return found;
}

describe('rupees and dates of the public site', () => {
  it.each(LOCALES)('writes dates in %s as Intl does for %s, in India', (lang, locale) => {
    const calendar = calendarOf(lang);
    const long = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: MARKET_TIME_ZONE,
    });
    const short = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      timeZone: MARKET_TIME_ZONE,
    });
    for (const at of instants()) {
      expect([at.toISOString(), formatDate(calendar, at)]).toEqual([at.toISOString(), long.format(at)]);
      expect([at.toISOString(), formatShortDate(calendar, at.toISOString())]).toEqual([
        at.toISOString(),
        short.format(at),
      ]);
    }
  });

  it.each(LOCALES)('writes rupees in %s as Intl does for %s', (_, locale) => {
    const rupees = new Intl.NumberFormat(locale, { style: 'currency', currency: 'INR' });
    const amounts = [
      0, 0.5, 1, 9.99, 99, 150, 999.5, 1000, 1299.5, 12_345.67, 99_999.99, 100_000, 1_234_567.8,
    ];
    amounts.push(-50, -1299.5, 1e9 + 0.01);
    for (const amount of amounts) {
      expect(formatMoney(amount)).toBe(rupees.format(amount));
      expect(formatMoney(amount.toFixed(2))).toBe(rupees.format(amount));
    }
  });
});
