import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import rosetta from 'rosetta';
import en from './locales/en.json';

/**
 * Texts in English, Hindi and Telugu. English is in the main bundle (it is also the fallback);
 * the other two are loaded when chosen. `msg` translates the API's and the rules' English
 * messages, which the locale files list under `msg` keyed by their English text.
 */
export type Dictionary = typeof en;
export type Language = 'en' | 'hi' | 'te';

export const LANGUAGES: ReadonlyArray<{ code: Language; label: string; intl: string }> = [
  { code: 'en', label: 'English', intl: 'en-IN' },
  { code: 'hi', label: 'हिन्दी', intl: 'hi-IN' },
  { code: 'te', label: 'తెలుగు', intl: 'te-IN' },
];

const STORAGE_KEY = 'language';
const i18n = rosetta<Dictionary>({ en });
i18n.locale('en');

const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Dictionary }>> = {
  hi: () => import('./locales/hi.json'),
  te: () => import('./locales/te.json'),
};

function isLanguage(value: unknown): value is Language {
  return LANGUAGES.some((language) => language.code === value);
}

export function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : 'en';
  } catch {
    return 'en';
  }
}

export async function loadLanguage(code: Language): Promise<void> {
  if (code !== 'en' && !i18n.table(code)) i18n.set(code, (await loaders[code]()).default);
}

export interface I18n {
  lang: Language;
  /** The Intl locale: en-IN, hi-IN or te-IN. */
  locale: string;
  t(key: string, params?: Record<string, string | number>): string;
  /** A message of the API or of the shared rules, in the chosen language. */
  msg(text: string): string;
  setLanguage(code: Language): Promise<void>;
  number(value: number): string;
  /** Rupees (a number or the API's decimal string) with Indian digit grouping. */
  money(value: number | string): string;
  date(value: string | Date): string;
}

const I18nContext = createContext<I18n | undefined>(undefined);

export function I18nProvider({ initial, children }: { initial: Language; children: ReactNode }) {
  const [lang, setLang] = useState<Language>(initial);

  const setLanguage = useCallback(async (code: Language) => {
    await loadLanguage(code);
    try {
      localStorage.setItem(STORAGE_KEY, code);
    } catch {
      // private mode: the choice lasts for this visit only
    }
    setLang(code);
  }, []);

  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);

  const value = useMemo<I18n>(() => {
    const locale = LANGUAGES.find((language) => language.code === lang)?.intl ?? 'en-IN';
    const numbers = new Intl.NumberFormat(locale);
    const rupees = new Intl.NumberFormat(locale, { style: 'currency', currency: 'INR' });
    const dates = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric' });
    const table = (i18n.table(lang) ?? en) as Dictionary;
    const messages = table.msg as Record<string, string>;
    return {
      lang,
      locale,
      t: (key, params) => i18n.t(key, params, lang) || i18n.t(key, params, 'en') || key,
      msg: (text) => messages[text] ?? text,
      setLanguage,
      number: (n) => numbers.format(n),
      money: (amount) => rupees.format(typeof amount === 'string' ? Number(amount) : amount),
      date: (when) => dates.format(typeof when === 'string' ? new Date(when) : when),
    };
  }, [lang, setLanguage]);

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const context = useContext(I18nContext);
  if (!context) throw new Error('useI18n outside I18nProvider');
  return context;
}

/** The tab's title: the page's own, then the site's name, in the visitor's language. */
export function usePageTitle(title?: string) {
  const { t } = useI18n();
  const brand = t('brand');
  useEffect(() => {
    document.title = title ? `${title} · ${brand}` : brand;
  }, [title, brand]);
}
