import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../rules/engagement.js';

/** The language a mailed link names (`&lang=hi`), else the browser's. */
export function linkLanguage(lang: unknown, acceptLanguage: unknown): Language {
  return typeof lang === 'string' && (LANGUAGES as readonly string[]).includes(lang)
    ? (lang as Language)
    : preferredLanguage(acceptLanguage);
}

/** The first of the product's languages the browser asks for (`hi-IN,hi;q=0.9,en;q=0.8`). */
export function preferredLanguage(acceptLanguage: unknown): Language {
  if (typeof acceptLanguage !== 'string') return DEFAULT_LANGUAGE;
  const asked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag = '', quality] = part.trim().split(';q=');
      return {
        language: tag.slice(0, 2).toLowerCase(),
        quality: quality === undefined ? 1 : Number(quality),
      };
    })
    .filter((entry) => (LANGUAGES as readonly string[]).includes(entry.language) && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality);
  return (asked[0]?.language as Language | undefined) ?? DEFAULT_LANGUAGE;
}
