import type { Language } from './engagement.js';

/**
 * Which words a count takes: "1 live coupon", "5 live coupons"; "ఈ రోజు 1 సారి వాడారు", "ఈ రోజు
 * 5 సార్లు వాడారు". English, Hindi and Telugu each have two of CLDR's plural categories, `one` and
 * `other`, and differ only in what is `one`: 1 in English and Telugu; 0, 1 and every fraction
 * below 1 in Hindi (CLDR: `i = 0 or n = 1`).
 *
 * Written out rather than asked of `Intl.PluralRules`: the public site builds no `Intl` object
 * while it hydrates (the browser loads locale data for the first one; see web-public formats.ts),
 * and the site, the back-office, the mails and the API answer alike whatever ICU data their
 * runtime carries. A test holds this table to Node's `Intl.PluralRules`.
 */
export type PluralForm = 'one' | 'other';

/** A text in the two forms a count picks from. */
export type PluralForms<T = string> = Record<PluralForm, T>;

export function pluralForm(language: Language, count: number): PluralForm {
  const n = Math.abs(count);
  return n === 1 || (language === 'hi' && n < 1) ? 'one' : 'other';
}

/** The form of `forms` that `count` takes in `language`. */
export function plural<T>(language: Language, count: number, forms: PluralForms<T>): T {
  return forms[pluralForm(language, count)];
}

/**
 * A message of the API whose words hold a count (a store's setting, say), in English: the form
 * the count takes, its `{{count}}` filled in. The web apps list each form's translation under its
 * English form, with `{{count}}` kept, and read the count back from the text (web-public `msg`).
 */
export function countedMessage(forms: PluralForms, count: number): string {
  return plural('en', count, forms).replaceAll('{{count}}', String(count));
}
