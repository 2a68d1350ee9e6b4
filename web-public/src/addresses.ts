import type { Category } from './api';
import { CONTROL_CHARACTERS, COUPON_LISTING } from './forms/rules';
import { LISTING_PAGES } from './listing';
import { isPrivate, matchPage } from './routes';
import { splitLanguage } from './site';

/**
 * The canonical form of an address the site is asked for: the page it is kept and rendered
 * under. The language is in the path; of the query, only the parameters the page reads, in a
 * fixed order (a coupon list's `sort`, `category`, `name` and `q`); any other (a campaign's
 * `utm_*`, `gclid`, `fbclid`, junk) is dropped, so it gets the canonical page's kept bytes.
 */
export interface CanonicalAddress {
  /** Path and the parameters the page reads: the key the page is kept under. */
  address: string;
  /** A parameter the page reads has a value that names nothing: the visitor goes to `address`. */
  misnamed: boolean;
  /** A free-text search: rendered, but kept only within the bounded share. */
  search: boolean;
  /** Categories named by id or name, which only the read models can confirm. */
  namesCategories: boolean;
  /** A page that differs by visitor (an account form with a query: a referral code, a token). */
  personal: boolean;
}

const CATEGORY_ID = /^[1-9]\d{0,8}$/;

/** `path` as asked (with its language), `query` without its `?`. */
export function canonicalAddress(path: string, query: string): CanonicalAddress {
  const plain = { address: path, misnamed: false, search: false, namesCategories: false, personal: false };
  if (query === '') return plain;
  const match = matchPage(splitLanguage(path).path);
  if (isPrivate(match)) return { ...plain, address: `${path}?${query}`, personal: true };
  if (match.page !== 'listing') return plain;

  const asked = new URLSearchParams(query);
  const canonical = new URLSearchParams();
  let misnamed = false;
  const { sorts } = LISTING_PAGES[match.kind];
  const sort = asked.get('sort');
  if (sort !== null && !(sorts as string[]).includes(sort)) misnamed = true;
  // The page's own order is its address without a sort.
  else if (sort !== null && sort !== sorts[0]) canonical.set('sort', sort);
  const ids = new Set<number>();
  for (const id of asked.getAll('category')) {
    if (CATEGORY_ID.test(id)) ids.add(Number(id));
    else misnamed = true;
  }
  for (const id of [...ids].sort((a, b) => a - b)) canonical.append('category', String(id));
  const name = asked.get('name')?.trim().toLowerCase();
  if (name) canonical.set('name', name);
  // As the list reads it (listingState): what the API would refuse is dropped, a search is words.
  const q = (asked.get('q') ?? '')
    .replace(CONTROL_CHARACTERS, '')
    .trim()
    .slice(0, COUPON_LISTING.maxSearchLength);
  if (q) canonical.set('q', q);
  const text = canonical.toString();
  return {
    address: text ? `${path}?${text}` : path,
    misnamed,
    search: q !== '',
    namesCategories: ids.size > 0 || Boolean(name),
    personal: false,
  };
}

/**
 * The canonical address without the categories it names that do not exist (by id, or by name
 * for the older header links); the same address when every one does.
 */
export function withKnownCategories(address: string, categories: readonly Category[]): string {
  const at = address.indexOf('?');
  if (at === -1) return address;
  const query = new URLSearchParams(address.slice(at + 1));
  const ids = new Set(categories.map((category) => String(category.id)));
  const names = new Set(categories.map((category) => category.name.toLowerCase()));
  const kept = new URLSearchParams();
  for (const [key, value] of query) {
    if ((key === 'category' && !ids.has(value)) || (key === 'name' && !names.has(value))) continue;
    kept.append(key, value);
  }
  const text = kept.toString();
  return text === query.toString() ? address : `${address.slice(0, at)}${text ? `?${text}` : ''}`;
}
