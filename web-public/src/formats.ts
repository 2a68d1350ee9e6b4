import { type CashbackRate, formatRupees, marketClock } from './forms/rules.js';

/** A language's calendar words, from its texts (`calendar` in the locale files). */
export interface Calendar {
  /** Month names as a date writes them, January first. */
  months: string[];
  shortMonths: string[];
  /** `{{day}}`, `{{month}}` and `{{year}}` in the language's order: "6 March 2026", "6 మార్చి, 2026". */
  date: string;
  shortDate: string;
}

/*
 * Rupees and dates are written from the shared rules and the language's month names rather than
 * with `Intl`: the first `Intl` format a page builds makes the browser load its locale data, a
 * task of tens of milliseconds on a phone (four times that on a slow one) paid in the middle of
 * hydrating the coupon cards. The month names and patterns are CLDR's for en-IN, hi-IN and te-IN
 * (a test holds them to Node's `Intl`), and the server renders the same strings as the browser.
 */

/** Rupees (a number or the API's decimal string): "₹1,29,999.50". */
export function formatMoney(amount: number | string): string {
  return formatRupees(Math.round(Number(amount) * 100));
}

/**
 * A cashback rate as the site writes it: a percentage without trailing zeros ("7%", "7.5%"), or
 * rupees as every price on the site is written ("₹150.00").
 */
export function formatCashbackRate(rate: CashbackRate): string {
  if ('rupees' in rate) return formatMoney(rate.rupees);
  const percent = rate.percent.includes('.') ? rate.percent.replace(/\.?0+$/, '') : rate.percent;
  return `${percent}%`;
}

/** The day in India: "6 March 2026". */
export function formatDate(calendar: Calendar, when: string | Date): string {
  const { day, month, year } = dayOf(when);
  return fill(calendar.date, { day, month: calendar.months[month - 1]!, year });
}

/** The day in India without its year, the month shortened: "6 Mar". */
export function formatShortDate(calendar: Calendar, when: string | Date): string {
  const { day, month } = dayOf(when);
  return fill(calendar.shortDate, { day, month: calendar.shortMonths[month - 1]! });
}

function dayOf(when: string | Date) {
  return marketClock(typeof when === 'string' ? new Date(when) : when).parts;
}

function fill(pattern: string, values: Record<string, string | number>): string {
  return pattern.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));
}
