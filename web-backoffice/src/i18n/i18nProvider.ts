import { pluralForm } from '@offers/api/rules';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { TranslationMessages } from 'react-admin';
import { englishTranslations } from './en';
import { hindi } from './hi';
import { telugu } from './te';

/** The one thing the back-office keeps in the browser across sign-outs: the chosen language. */
export const LOCALE_KEY = 'offers.backoffice.locale';
export const LOCALES = ['en', 'hi', 'te'] as const;
type Locale = (typeof LOCALES)[number];

type Messages = { [key: string]: string | Messages };

/** English under every translation, so a text not yet translated never shows as a raw key. */
function over(base: Messages, top: Messages): Messages {
  const merged: Messages = { ...base };
  for (const [key, value] of Object.entries(top)) {
    const below = base[key];
    merged[key] =
      typeof value === 'object' && typeof below === 'object' ? over(below, value) : (value as string);
  }
  return merged;
}

const english = englishTranslations as unknown as Messages;
const catalogues: Record<Locale, Messages> = {
  en: english,
  hi: over(english, hindi as unknown as Messages),
  te: over(english, telugu as unknown as Messages),
};

export function storedLocale(): Locale {
  const saved = typeof localStorage === 'undefined' ? null : localStorage.getItem(LOCALE_KEY);
  return LOCALES.includes(saved as Locale) ? (saved as Locale) : 'en';
}

export function rememberLocale(locale: string) {
  if (LOCALES.includes(locale as Locale)) localStorage.setItem(LOCALE_KEY, locale);
  document.documentElement.lang = locale;
}

/**
 * A text that changes with a count is written `one |||| other` and given the count as
 * `smart_count`; the form is picked by the shared rule (api/src/rules/plurals.ts). Polyglot's own
 * table knows no Telugu and only "hi-IN", so it would count Hindi as English (0 takes `one` in Hindi).
 */
const pluralRules = {
  pluralTypes: Object.fromEntries(
    LOCALES.map((locale) => [locale, (count: number) => (pluralForm(locale, count) === 'one' ? 0 : 1)]),
  ),
  pluralTypeToLanguages: Object.fromEntries(LOCALES.map((locale) => [locale, [locale]])),
};

export const i18nProvider = polyglotI18nProvider(
  (locale) => (catalogues[locale as Locale] ?? english) as unknown as TranslationMessages,
  storedLocale(),
  [
    { locale: 'en', name: 'English' },
    { locale: 'hi', name: 'हिन्दी' },
    { locale: 'te', name: 'తెలుగు' },
  ],
  { allowMissing: true, pluralRules },
);
