/**
 * How long shared caches (a CDN in front of the site) and browsers keep what the site and the API
 * answer, by kind of answer: one rule for the site's server and the API.
 */
import { localePath, SITE_LANGUAGES } from './addresses.js';

/**
 * Anything personal (a signed-in page, an account form, `/api/me`, merchant and admin answers, a
 * POST's answer): no cache anywhere keeps it.
 */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * An anonymous public page or read: the CDN keeps it `maxAge` seconds and may answer from it for
 * `staleSeconds` more while it asks again. Browsers keep nothing (`max-age=0`) and ask each time
 * with the ETag: the CDN answers that with a 304 of a few bytes, and a shopper never sees a page
 * the CDN already dropped.
 */
export function publicCacheControl(maxAge: number, staleSeconds: number): string {
  return `public, max-age=0, s-maxage=${maxAge}, stale-while-revalidate=${staleSeconds}`;
}

/**
 * The API's public reads, as their routes are named: the same for every caller (no session is
 * read), so a CDN may keep them. Every other API route answers {@link PRIVATE_CACHE_CONTROL} unless
 * it says otherwise (the media routes keep their images for good).
 */
export const PUBLIC_API_READS: readonly string[] = [
  '/api/coupons',
  '/api/categories',
  '/api/home',
  '/api/heroes',
  '/api/banners',
  '/api/flash-text',
  '/api/stores',
  '/api/stores/:store',
  '/api/MerchantPage/GetMerchantStore/:id',
  '/api/search/suggest',
];

/** Most paths one purge call names; a larger change is sent in several calls. */
export const CDN_PURGE_PATHS_PER_CALL = 100;

/** First wait before a failed purge call is tried again; each later wait doubles it. */
export const CDN_PURGE_BACKOFF_MS = 1000;

/** Purge attempts before one is left as failed (the waits add up to days). */
export const CDN_PURGE_ATTEMPTS = 20;

/**
 * Site pages (within a language) that show coupons, stores or curated content, whatever changed:
 * the home page, the lists and the stores A-Z. `/coupons/*` is every category's list.
 */
const SHARED_PAGES = ['/', '/coupons', '/coupons/*', '/categories', '/top-offers', '/offers', '/stores'];

/** API reads (the public ones without a parameter) and crawler files any change may change. */
const SHARED_READS = [
  ...PUBLIC_API_READS.filter((path) => !path.includes(':')),
  '/sitemap.xml',
  '/sitemaps/*',
];

/** A store as purges name it: by merchant id (older addresses) and by its slug. */
export interface PurgedStore {
  id: number;
  slug: string | null;
}

/**
 * The public paths to purge after a change of coupons, stores, cashback or home content: the
 * pages every change may touch in each language, and each changed store's page and reads. A path
 * stands for itself with any query string (`/coupons` also drops `/coupons?sort=az`); one ending in
 * `/*` for everything under it. Each path once, in a stable order.
 */
export function cdnPathsOfChange(stores: readonly PurgedStore[]): string[] {
  const paths = new Set<string>();
  const storePages: string[] = [];
  for (const store of stores) {
    const addresses = store.slug ? [store.slug, String(store.id)] : [String(store.id)];
    for (const address of addresses) {
      storePages.push(`/store/${address}`);
      paths.add(`/api/stores/${address}`);
    }
    paths.add(`/api/MerchantPage/GetMerchantStore/${store.id}`);
  }
  const pages = new Set<string>();
  for (const lang of SITE_LANGUAGES)
    for (const page of [...SHARED_PAGES, ...storePages]) pages.add(localePath(lang, page));
  return [...pages, ...SHARED_READS, ...paths];
}
