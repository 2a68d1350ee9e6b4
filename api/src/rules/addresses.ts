import { CATEGORIES } from './coupons.js';

/**
 * Addresses of the public site that search engines index: shared by the API (store slugs), the
 * site's server (sitemap, redirects) and the site itself (links).
 */

/** The site's languages; English lives at `/`, the others under `/hi/` and `/te/`. */
export const SITE_LANGUAGES = ['en', 'hi', 'te'] as const;
export type SiteLanguage = (typeof SITE_LANGUAGES)[number];

/** Where the routes of a language live: '' for English, '/hi' and '/te' otherwise. */
export function languageBase(lang: SiteLanguage): string {
  return lang === 'en' ? '' : `/${lang}`;
}

/** The address of a page (given within a language) in that language: `/coupons` in hi → `/hi/coupons`. */
export function localePath(lang: SiteLanguage, path: string): string {
  const base = languageBase(lang);
  if (!base) return path;
  return path === '/' ? `${base}/` : `${base}${path}`;
}

/** Longest slug kept; a store's name rarely needs more, and addresses stay readable. */
export const SLUG_MAX_LENGTH = 60;

/**
 * A lower-case, hyphenated form of a name in Latin letters and digits ("Glow & Co." → "glow-co");
 * empty when nothing of the name is Latin (a name in Devanagari or Telugu script).
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/g, '');
}

/**
 * A store's slug from its names: never all digits, since `/store/<digits>` is a merchant id
 * (brand "1947" → "store-1947"). Empty when no name has Latin letters or digits.
 */
export function storeSlug(...names: string[]): string {
  const slug = names.map(slugify).find(Boolean) ?? '';
  return /^\d+$/.test(slug) ? `store-${slug}` : slug;
}

/** The eight categories with their addresses: `/coupons/<slug>`. */
export const CATEGORY_SLUGS: ReadonlyArray<{ name: (typeof CATEGORIES)[number]; slug: string }> =
  CATEGORIES.map((name) => ({ name, slug: slugify(name) }));

export function categoryBySlug(slug: string) {
  return CATEGORY_SLUGS.find((category) => category.slug === slug);
}

export function categorySlugOf(name: string): string | undefined {
  return CATEGORY_SLUGS.find((category) => category.name.toLowerCase() === name.toLowerCase())?.slug;
}

/** A store's address: its slug when it has one, else its merchant id. */
export const STORE_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The shape of a web address the back-office's forms check while typing: http(s), a host, no
 * spaces. The API's check (class-validator's IsUrl, with the protocol required) has the last word.
 */
export const WEB_ADDRESS_SHAPE = /^https?:\/\/[^\s/$.?#].[^\s]*$/i;

/** The same, with the scheme optional: home-page content links get `https://` when it is missing. */
export const WEB_ADDRESS_SHAPE_ANY_SCHEME = /^(https?:\/\/)?[^\s/$.?#].[^\s]*$/i;
