import type { CashbackRate, StoreCashbackShown } from '../../rules/cashback.js';

/**
 * The public store reads' answers, as JSON carries them. Types only and without dependencies, so
 * both web apps import them (type-only) instead of copying them.
 */

/** A product's picture in three widths (null where there is none). */
export interface ProductImages {
  small: string | null;
  medium: string | null;
  large: string | null;
}

/** A product as shoppers see it on a store page. */
export interface StorePageProduct {
  id: number;
  productName: string;
  brand: string;
  description: string;
  price: string;
  merchantUrl: string | null;
  images: ProductImages;
}

/** The public store page (`GET /api/stores/:merchantId`). */
export interface StorePage {
  merchantId: number;
  /** The page's address: `/store/<slug>`. */
  slug: string;
  storeName: string;
  storeAddress: string;
  tagline: string;
  aboutDescription: string;
  logoUrl: string | null;
  landingBannerUrl: string | null;
  heroBannerUrl: string | null;
  updatedAt: string;
  categories: Array<{ id: number; categoryName: string; description: string; products: StorePageProduct[] }>;
  uncategorised: StorePageProduct[];
  /** What the store pays back, read when the page is asked for; null when it pays nothing. */
  cashback: StoreCashbackShown | null;
}

/** A store in the public A-Z index. */
export interface StoreSummary {
  merchantId: number;
  slug: string;
  storeName: string;
  logoUrl: string | null;
  liveCoupons: number;
  updatedAt: string;
  /** The store's best cashback rate ("up to"); null when it pays nothing. */
  cashback: CashbackRate | null;
}

/** A page of the A-Z index with the count of all stores. */
export interface StoreList {
  data: StoreSummary[];
  total: number;
}
