import { languageBase, localePath, SITE_LANGUAGES, type SiteLanguage } from './forms/rules';

/**
 * Every page's address says its language: English at `/...`, Hindi at `/hi/...`, Telugu at
 * `/te/...`, so each language is its own page for search engines (with hreflang alternates).
 */
export type Language = SiteLanguage;

/** The cookie that remembers a chosen language, so `/` can send a returning visitor to it. */
export const LANGUAGE_COOKIE = 'language';

/** The language of an address and the address within that language (`/hi/coupons` → hi, `/coupons`). */
export function splitLanguage(path: string): { lang: Language; path: string } {
  const match = /^\/(hi|te)(\/.*)?$/.exec(path);
  if (!match) return { lang: 'en', path: path || '/' };
  return { lang: match[1] as Language, path: match[2] || '/' };
}

export function isLanguage(value: unknown): value is Language {
  return (SITE_LANGUAGES as readonly unknown[]).includes(value);
}

export { languageBase, localePath, SITE_LANGUAGES };
