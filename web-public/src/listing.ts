import type { Category } from './api';
import { CATEGORY_SLUGS, CONTROL_CHARACTERS, COUPON_LISTING } from './forms/rules';
import type { ListingKind } from './routes';

/**
 * What a coupon list page shows for its address: the order (tabs switch to the others), the
 * categories chosen, the search and how many pages of 8. Shared by the page and the server that
 * renders it, so both ask the API for the same list.
 */
export type Sort = 'popular' | 'az' | 'newest' | 'verified' | 'top' | 'best';

/** Each page: its default order first, then the other tabs; and its banner position. */
export const LISTING_PAGES: Record<
  ListingKind,
  { title: string; sorts: Sort[]; banner: 'cat' | 'Tc' | 'Bo' }
> = {
  coupons: { title: 'coupons.titleCoupons', sorts: ['popular', 'az', 'newest', 'verified'], banner: 'cat' },
  categories: {
    title: 'coupons.titleCategories',
    sorts: ['popular', 'az', 'newest', 'verified'],
    banner: 'cat',
  },
  top: { title: 'coupons.titleTop', sorts: ['top', 'popular', 'az', 'newest'], banner: 'Tc' },
  best: { title: 'coupons.titleBest', sorts: ['best', 'popular', 'az', 'newest'], banner: 'Bo' },
};

export interface ListingState {
  sort: Sort;
  /** Category ids, ascending. */
  selected: number[];
  q: string;
}

/**
 * The list an address asks for. A category page (`/coupons/skin-care`) and the older header
 * links (`?name=Skin Care`) name their category; its id is known once the categories are.
 */
export function listingState(
  kind: ListingKind,
  search: URLSearchParams,
  categories: Category[] | undefined,
  categorySlug?: string,
): ListingState {
  const { sorts } = LISTING_PAGES[kind];
  const asked = search.get('sort') ?? '';
  const sort = (sorts as string[]).includes(asked) ? (asked as Sort) : sorts[0]!;
  const ids = new Set(search.getAll('category').map(Number).filter(Number.isInteger));
  const named = [
    search.get('name')?.toLowerCase(),
    CATEGORY_SLUGS.find((category) => category.slug === categorySlug)?.name.toLowerCase(),
  ];
  for (const name of named) {
    const match = name && categories?.find((category) => category.name.toLowerCase() === name);
    if (match) ids.add(match.id);
  }
  // What the API would refuse is dropped: a search is words.
  const q = (search.get('q') ?? '')
    .replace(CONTROL_CHARACTERS, '')
    .trim()
    .slice(0, COUPON_LISTING.maxSearchLength);
  return { sort, selected: [...ids].sort((a, b) => a - b), q };
}

/** Whether the address names a category whose id must wait for the categories. */
export function waitsForCategories(search: URLSearchParams, categorySlug?: string): boolean {
  return Boolean(search.get('name') || categorySlug);
}

/** `GET /api/coupons` for one page of the list. */
export function listingUrl(state: ListingState, page: number): string {
  const query = new URLSearchParams({
    sort: state.sort,
    page: String(page),
    perPage: String(COUPON_LISTING.sitePerPage),
  });
  for (const id of state.selected) query.append('category', String(id));
  if (state.q) query.set('q', state.q);
  return `/api/coupons?${query}`;
}

export const CATEGORIES_URL = '/api/categories';
export const bannersUrl = (position: string) => `/api/banners?position=${position}`;
