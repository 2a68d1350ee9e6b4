/**
 * What the server renderer bundle (`src/entry-server.tsx`, built by Vite with `--ssr`) offers the
 * site's server. Declared here because the bundle is TSX for the browser's type world; the
 * shapes are those of `src/routes.ts`, `src/seo.ts` and `src/page-data.tsx`.
 */
export type Language = 'en' | 'hi' | 'te';

export interface PageMatch {
  page:
    | 'home'
    | 'listing'
    | 'store'
    | 'stores'
    | 'info'
    | 'contact'
    | 'grievance'
    | 'register'
    | 'signIn'
    | 'account'
    | 'accountSecurity'
    | 'forgotPassword'
    | 'resetPassword'
    | 'notFound'
    | 'redirect';
  to?: string;
  address?: string;
}

export interface PageHead {
  title: string;
  description: string;
  canonical?: string;
  alternates: Array<{ lang: string; href: string }>;
  image: string;
  robots?: string;
  locale: string;
  jsonLd: object[];
  preloadImage?: { href: string; srcset?: string; sizes?: string };
}

export type PageData = Record<string, unknown>;

/** The canonical form of an address (see `src/addresses.ts`). */
export interface CanonicalAddress {
  address: string;
  misnamed: boolean;
  search: boolean;
  namesCategories: boolean;
  personal: boolean;
}

export interface SsrEntry {
  canonicalAddress(path: string, query: string): CanonicalAddress;
  withKnownCategories(address: string, categories: ReadonlyArray<{ id: number; name: string }>): string;
  /** The id of the page's JSON script element (see src/page-script.ts). */
  PAGE_DATA_ID: string;
  matchPage(path: string): PageMatch;
  isPrivate(match: PageMatch): boolean;
  loadPageData(
    match: PageMatch,
    search: URLSearchParams,
    fetch: (url: string) => Promise<unknown | undefined>,
  ): Promise<{ data: PageData; found: boolean }>;
  headFor(options: {
    match: PageMatch;
    path: string;
    search: URLSearchParams;
    lang: Language;
    data: PageData;
    publicUrl: string;
  }): PageHead;
  renderPage(url: string, lang: Language, data: PageData): Promise<string>;
  splitLanguage(path: string): { lang: Language; path: string };
  localePath(lang: Language, path: string): string;
  escapeHtml(text: string): string;
  scriptJson(value: unknown): string;
  SITE_LANGUAGES: readonly Language[];
  LANGUAGE_COOKIE: string;
}
