import { categoryBySlug, STORE_SLUG_PATTERN } from './forms/rules.js';
import { legacyTarget } from './legacy-routes.js';

/**
 * The site's pages, matched from an address within its language (`/coupons/skin-care`). One table
 * for the server (what to load, which status to answer) and the browser (which page to show).
 */
export type ListingKind = 'coupons' | 'categories' | 'top' | 'best';
export type InfoKind = 'faq' | 'terms' | 'about' | 'privacy' | 'careers';

export type PageMatch =
  | { page: 'home' }
  | { page: 'listing'; kind: ListingKind; categorySlug?: string }
  | { page: 'store'; address: string }
  | { page: 'stores' }
  | { page: 'info'; info: InfoKind }
  | { page: 'contact' }
  | { page: 'grievance' }
  | { page: 'register' }
  | { page: 'signIn' }
  | { page: 'account'; section?: string; earningId?: number }
  | { page: 'accountSecurity' }
  | { page: 'forgotPassword' }
  | { page: 'resetPassword' }
  | { page: 'notFound' }
  | { page: 'redirect'; to: string };

const LISTINGS: Record<string, ListingKind> = {
  '/coupons': 'coupons',
  '/categories': 'categories',
  '/top-offers': 'top',
  '/offers': 'best',
};
const INFO_PAGES: InfoKind[] = ['faq', 'terms', 'about', 'privacy', 'careers'];

export function matchPage(path: string): PageMatch {
  if (path === '/') return { page: 'home' };
  const listing = LISTINGS[path];
  if (listing) return { page: 'listing', kind: listing };
  const category = /^\/coupons\/([^/]+)$/.exec(path);
  if (category) {
    return categoryBySlug(category[1]!)
      ? { page: 'listing', kind: 'coupons', categorySlug: category[1]! }
      : { page: 'notFound' };
  }
  const store = /^\/store\/([^/]+)$/.exec(path);
  if (store) {
    const address = store[1]!;
    return /^[1-9]\d{0,8}$/.test(address) || STORE_SLUG_PATTERN.test(address)
      ? { page: 'store', address }
      : { page: 'notFound' };
  }
  if (path === '/stores') return { page: 'stores' };
  const info = INFO_PAGES.find((name) => path === `/${name}`);
  if (info) return { page: 'info', info };
  if (path === '/contact') return { page: 'contact' };
  if (path === '/grievance') return { page: 'grievance' };
  if (path === '/register') return { page: 'register' };
  if (path === '/sign-in') return { page: 'signIn' };
  if (path === '/forgot-password') return { page: 'forgotPassword' };
  if (path === '/reset-password') return { page: 'resetPassword' };
  if (path === '/account/security') return { page: 'accountSecurity' };
  const earning = /^\/account\/earnings\/([1-9]\d{0,8})$/.exec(path);
  if (earning) return { page: 'account', section: 'earnings', earningId: Number(earning[1]) };
  const account = /^\/account(?:\/([a-z-]+))?$/.exec(path);
  if (account) return { page: 'account', section: account[1] };
  const target = legacyTarget(path);
  return target ? { page: 'redirect', to: target } : { page: 'notFound' };
}

const PRIVATE: ReadonlyArray<PageMatch['page']> = [
  'account',
  'accountSecurity',
  'signIn',
  'register',
  'forgotPassword',
  'resetPassword',
];

/** Pages with nothing for search engines: the user area and the account forms. */
export function isPrivate(match: PageMatch): boolean {
  return PRIVATE.includes(match.page);
}
