import { createContext, type ReactNode, use, useContext, useEffect, useMemo, useState } from 'react';
import rosetta, { type Rosetta } from 'rosetta';
import { formatCashbackRate, formatDate, formatMoney, formatShortDate } from './formats';
import { type CashbackRate, pluralForm } from './forms/rules';
import en from './locales/en.json';
import { LANGUAGE_COOKIE, type Language } from './site';

/**
 * Texts in English, Hindi and Telugu. English is in the main bundle (it is also the fallback);
 * the other two are loaded when chosen. `msg` translates the API's and the rules' English
 * messages, which the locale files list under `msg` keyed by their English text.
 */
export type Dictionary = typeof en;
export type { Language };

export const LANGUAGES: ReadonlyArray<{ code: Language; label: string; intl: string }> = [
  { code: 'en', label: 'English', intl: 'en-IN' },
  { code: 'hi', label: 'हिन्दी', intl: 'hi-IN' },
  { code: 'te', label: 'తెలుగు', intl: 'te-IN' },
];

const i18n = rosetta<Dictionary>({ en });
i18n.locale('en');

const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Dictionary }>> = {
  hi: () => import('./locales/hi.json'),
  te: () => import('./locales/te.json'),
};

export function isLoaded(code: Language): boolean {
  return code === 'en' || Boolean(i18n.table(code));
}

export async function loadLanguage(code: Language): Promise<void> {
  if (!isLoaded(code)) i18n.set(code, (await loaders[code as Exclude<Language, 'en'>]()).default);
}

/**
 * Texts the home page never shows, a chunk per language and part, loaded by the pages that show
 * them (`preload`: the server before rendering, the browser before hydrating), so the home page's
 * JavaScript carries none of them: the account area's (registration, sign-in, password, earnings,
 * payouts, referrals, followed stores), the stores' (the A-Z, a store's page, its cashback, following
 * it) and the forms' (contact, the form notices registration shares).
 * They join the language's texts once those are loaded, so `t` finds them as any other.
 */
const TEXT_PARTS = {
  account: {
    en: () => import('./locales/account/en.json'),
    hi: () => import('./locales/account/hi.json'),
    te: () => import('./locales/account/te.json'),
  },
  stores: {
    en: () => import('./locales/stores/en.json'),
    hi: () => import('./locales/stores/hi.json'),
    te: () => import('./locales/stores/te.json'),
  },
  forms: {
    en: () => import('./locales/forms/en.json'),
    hi: () => import('./locales/forms/hi.json'),
    te: () => import('./locales/forms/te.json'),
  },
} satisfies Record<string, Record<Language, () => Promise<{ default: object }>>>;
export type TextPart = keyof typeof TEXT_PARTS;

const partsLoading = new Map<string, Promise<void>>();
const partsLoaded = new Set<string>();

export function loadTexts(part: TextPart, code: Language): Promise<void> {
  const key = `${part}:${code}`;
  let promise = partsLoading.get(key);
  if (!promise) {
    promise = Promise.all([TEXT_PARTS[part][code](), loadLanguage(code)]).then(
      ([module]) => {
        // Merged into the language's table (rosetta assigns a table's sections onto it).
        i18n.set(code, module.default as unknown as Dictionary);
        partsLoaded.add(key);
      },
      (error: unknown) => {
        // A failed download (a dropped connection) is tried again by the next page that asks.
        partsLoading.delete(key);
        throw error;
      },
    );
    partsLoading.set(key, promise);
  }
  return promise;
}

/** Parts of the texts in the page's language, suspending the page until they are loaded. */
export function useTexts(...parts: TextPart[]): void {
  const { lang } = useI18n();
  for (const part of parts) if (!partsLoaded.has(`${part}:${lang}`)) use(loadTexts(part, lang));
}

/** Remembers the chosen language for a year, so `/` sends a returning visitor to it. */
export function rememberLanguage(code: Language): void {
  // biome-ignore lint/suspicious/noDocumentCookie: one cookie, written at once in every browser (the Cookie Store API is not everywhere)
  document.cookie = `${LANGUAGE_COOKIE}=${code}; path=/; max-age=31536000; samesite=lax`;
}

export interface I18n {
  lang: Language;
  /**
   * A text with its `{{params}}` filled in. A text whose words change with a number is written
   * as its plural forms (`"usedToday": { "one": ..., "other": ... }`) and given that number as
   * `count`, which picks the form by the language's rule (api/src/rules/plurals.ts).
   */
  t(key: string, params?: Record<string, string | number>): string;
  /**
   * A message of the API or of the shared rules, in the chosen language. One that holds a number
   * is listed once, by its English text with `{{count}}` (see countedMessage in the rules).
   */
  msg(text: string): string;
  /** Rupees (a number or the API's decimal string) with Indian digit grouping. */
  money(value: number | string): string;
  /** A cashback rate: "7%", "7.5%" or "₹150.00". */
  cashbackRate(rate: CashbackRate): string;
  date(value: string | Date): string;
  /** A date without its year, month shortened: "8 Dec". */
  shortDate(value: string | Date): string;
}

const I18nContext = createContext<I18n | undefined>(undefined);

/** Rupees and dates in the language's words, without `Intl` (see formats.ts). */
function formatsOf(lang: Language): Pick<I18n, 'money' | 'cashbackRate' | 'date' | 'shortDate'> {
  const { calendar } = (i18n.table(lang) ?? en) as Dictionary;
  return {
    money: formatMoney,
    cashbackRate: formatCashbackRate,
    date: (when) => formatDate(calendar, when),
    shortDate: (when) => formatShortDate(calendar, when),
  };
}

/**
 * A text of `texts` in a language, its `{{params}}` filled in; one written as its plural forms
 * (`{ "one": ..., "other": ... }`) takes the form of `count` in that language. Empty if missing.
 */
export function textIn(
  texts: Rosetta<unknown>,
  lang: Language,
  key: string,
  params?: Record<string, string | number>,
): string {
  const count = params?.count;
  return (
    (typeof count === 'number' && texts.t(`${key}.${pluralForm(lang, count)}`, params, lang)) ||
    texts.t(key, params, lang)
  );
}

type Messages = Record<string, string>;

/**
 * The messages listed with `{{params}}` (the API fills in a store's setting, say), each as a
 * pattern of its English text that reads the params back, and its translation.
 */
const templatesOf = new WeakMap<Messages, Array<{ pattern: RegExp; names: string[]; text: string }>>();

function filledMessage(messages: Messages, text: string): string | undefined {
  let templates = templatesOf.get(messages);
  if (!templates) {
    templates = Object.entries(messages)
      .filter(([english]) => english.includes('{{'))
      .map(([english, translated]) => {
        const names: string[] = [];
        const source = english
          .split(/\{\{(\w+)\}\}/)
          .map((part, index) => {
            if (index % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            names.push(part);
            return '(.+?)';
          })
          .join('');
        return { pattern: new RegExp(`^${source}$`), names, text: translated };
      });
    templatesOf.set(messages, templates);
  }
  for (const { pattern, names, text: translated } of templates) {
    const found = pattern.exec(text);
    if (found) return translated.replace(/\{\{(\w+)\}\}/g, (_, name) => found[names.indexOf(name) + 1] ?? '');
  }
  return undefined;
}

/** The texts of a loaded language, with English for what it lacks. */
export function textsOf(lang: Language): Pick<I18n, 't' | 'msg'> {
  const messages = ((i18n.table(lang) ?? en) as Dictionary).msg as Messages;
  return {
    t: (key, params) => textIn(i18n, lang, key, params) || textIn(i18n, 'en', key, params) || key,
    msg: (text) => messages[text] ?? filledMessage(messages, text) ?? text,
  };
}

/**
 * Texts of the language of the address. A language reached without its texts loaded (the back
 * button to another language) shows English for a moment, then its own.
 */
export function I18nProvider({ lang, children }: { lang: Language; children: ReactNode }) {
  const [, setLoaded] = useState(0);
  const ready = isLoaded(lang);

  useEffect(() => {
    if (!ready) void loadLanguage(lang).then(() => setLoaded((count) => count + 1));
  }, [lang, ready]);

  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);

  const value = useMemo<I18n>(() => {
    const shown = ready ? lang : 'en';
    return { lang: shown, ...textsOf(shown), ...formatsOf(shown) };
  }, [lang, ready]);

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const context = useContext(I18nContext);
  if (!context) throw new Error('useI18n outside I18nProvider');
  return context;
}

/** A page's title in the tab and in search results: its own, then the site's name. */
export function pageTitle(brand: string, title?: string): string {
  return title ? `${title} · ${brand}` : brand;
}

/** Keeps the tab's title when the page changes in the browser (the server rendered the first one). */
export function usePageTitle(title?: string) {
  const { t } = useI18n();
  const brand = t('brand');
  useEffect(() => {
    document.title = pageTitle(brand, title);
  }, [title, brand]);
}
