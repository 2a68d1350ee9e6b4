import { createContext, type ReactNode, useContext } from 'react';
import type { Category, Store } from './api';
import { bannersUrl, CATEGORIES_URL, LISTING_PAGES, listingState, listingUrl } from './listing';
import type { PageMatch } from './routes';

/**
 * The API answers a page was rendered with on the server, keyed by the API address the page asks
 * for (`/api/home`). The browser starts from them instead of asking again; they hold only for the
 * address the page was rendered at, so after the first navigation every page fetches its own.
 */
export type PageData = Record<string, unknown>;

const PageDataContext = createContext<PageData>({});

export function PageDataProvider({ data, children }: { data: PageData; children: ReactNode }) {
  return <PageDataContext.Provider value={data}>{children}</PageDataContext.Provider>;
}

/** What the server rendered this page with for `url`, if anything. */
export function useInitialData<T>(url: string | undefined): T | undefined {
  const data = useContext(PageDataContext);
  return url === undefined ? undefined : (data[url] as T | undefined);
}

/** Set by the server when the address names nothing (an unknown store): the page is the 404. */
export const NOT_FOUND_KEY = '#not-found';

export const HOME_URL = '/api/home';
export const STORES_URL = '/api/stores?page=1&perPage=500';
export const storeUrl = (address: string) => `/api/stores/${address}`;
/** A store's live coupons, most revealed first: all of them fit on one page. */
export const storeCouponsUrl = (merchantId: number) =>
  `/api/coupons?sort=popular&merchant=${merchantId}&page=1&perPage=100`;

/** Asks the API (or, on the server, the read models) for one address; undefined when there is nothing there. */
export type Fetcher = (url: string) => Promise<unknown | undefined>;

/**
 * Loads what a page shows before it is rendered on the server: the same addresses the page asks
 * for in the browser. A missing store is a 404.
 */
export async function loadPageData(
  match: PageMatch,
  search: URLSearchParams,
  fetch: Fetcher,
): Promise<{ data: PageData; found: boolean }> {
  const data: PageData = {};
  const load = async (url: string) => {
    const body = await fetch(url);
    if (body !== undefined) data[url] = body;
    return body;
  };
  switch (match.page) {
    case 'home':
      await load(HOME_URL);
      break;
    case 'listing': {
      const [categories] = await Promise.all([
        load(CATEGORIES_URL) as Promise<Category[] | undefined>,
        load(bannersUrl(LISTING_PAGES[match.kind].banner)),
      ]);
      await load(listingUrl(listingState(match.kind, search, categories, match.categorySlug), 1));
      break;
    }
    case 'store': {
      const store = (await load(storeUrl(match.address))) as Store | undefined;
      if (!store) return { data: { [NOT_FOUND_KEY]: true }, found: false };
      await load(storeCouponsUrl(store.merchantId));
      break;
    }
    case 'stores':
      await load(STORES_URL);
      break;
    default:
      break;
  }
  return { data, found: match.page !== 'notFound' };
}
