import {
  BANNER_POSITIONS,
  type BannerPosition,
  CONTROL_CHARACTERS,
  COUPON_LISTING,
  COUPON_SORTS,
  STORE_LIST,
} from '@offers/api/rules';
import {
  CouponListings,
  type Environment,
  HomePageQueries,
  type ListingQuery,
  listStores,
  storePageText,
} from '@offers/api/site';
import type { DataSource } from 'typeorm';

/** Answers the API addresses a page asks for (`/api/home`, ...) or undefined when there is nothing there. */
export type ReadModelFetcher = (address: string) => Promise<unknown | undefined>;

const SORTS: readonly string[] = [...COUPON_SORTS, 'top'];

function wholeNumber(text: string | null, min: number, max: number, fallback: number): number {
  if (text === null) return fallback;
  const value = Number(text);
  return Number.isInteger(value) && value >= min && value <= max ? value : fallback;
}

/**
 * The same answers as the API's public reads, from the same read models and the same query
 * code, but read here: a page rendered after a change notification reads what that change
 * committed, which asking another process (whose cache may not have heard of it yet) would not
 * promise. Only the addresses the site's pages build are known.
 */
export function readModelFetcher(dataSource: DataSource, environment: Environment): ReadModelFetcher {
  const listings = new CouponListings(dataSource, environment);
  const home = new HomePageQueries(dataSource, listings);
  return async (address) => {
    const url = new URL(address, 'http://site.invalid');
    const query = url.searchParams;
    switch (url.pathname) {
      case '/api/home':
        return home.homePage();
      case '/api/categories':
        return listings.categories();
      case '/api/banners': {
        const position = query.get('position') as BannerPosition;
        if (!BANNER_POSITIONS.includes(position)) return undefined;
        return (await home.content()).banners[position];
      }
      case '/api/coupons': {
        const sort = query.get('sort') ?? 'popular';
        if (!SORTS.includes(sort)) return undefined;
        const categoryIds = query
          .getAll('category')
          .map(Number)
          .filter((id) => Number.isInteger(id) && id > 0);
        const merchant = query.get('merchant');
        return listings.find({
          sort: sort as ListingQuery['sort'],
          categoryIds: categoryIds.length ? [...new Set(categoryIds)].sort((a, b) => a - b) : undefined,
          merchantId: merchant === null ? undefined : wholeNumber(merchant, 1, 2_147_483_647, 0),
          q:
            query.get('q')?.replace(CONTROL_CHARACTERS, '').trim().slice(0, COUPON_LISTING.maxSearchLength) ||
            undefined,
          page: wholeNumber(query.get('page'), 1, 100_000, 1),
          perPage: wholeNumber(
            query.get('perPage'),
            1,
            COUPON_LISTING.maxPerPage,
            COUPON_LISTING.defaultPerPage,
          ),
        });
      }
      case '/api/stores':
        return listStores(
          dataSource,
          wholeNumber(query.get('page'), 1, 100_000, 1),
          wholeNumber(query.get('perPage'), 1, STORE_LIST.maxPerPage, STORE_LIST.defaultPerPage),
          environment,
        );
    }
    const store = /^\/api\/stores\/([a-z0-9-]{1,60})$/.exec(url.pathname);
    if (store) {
      const text = await storePageText(dataSource, store[1]!, environment);
      return text === undefined ? undefined : JSON.parse(text);
    }
    return undefined;
  };
}
