/** Calls to the API on this site's origin. Cookie sessions prove unsafe requests with the XSRF token. */

import type { Translated } from './forms/rules';

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldErrors = {},
  ) {
    super(message);
  }
}

function cookie(name: string): string | undefined {
  const found = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : undefined;
}

export async function api<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const xsrf = cookie('XSRF-TOKEN');
  if (method !== 'GET' && method !== 'HEAD' && xsrf) headers['x-xsrf-token'] = xsrf;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, 'Network error');
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  if (!response.ok) {
    const problem = (typeof body === 'object' && body ? body : {}) as {
      message?: unknown;
      errors?: FieldErrors;
    };
    const message = typeof problem.message === 'string' ? problem.message : response.statusText;
    throw new ApiError(response.status, message, problem.errors ?? {});
  }
  return body as T;
}

/** `/api/media/<id>` images come in fixed widths; anything else is used as it is. */
export const MEDIA_WIDTHS = [160, 320, 480, 640, 960, 1280, 1920] as const;

export function isMediaUrl(url: string | null | undefined): url is string {
  return typeof url === 'string' && url.startsWith('/api/media/');
}

// ---------------------------------------------------------------------------------------------
// Shapes of the API's answers

export interface CouponCard {
  id: number;
  title: string;
  description: string;
  terms: string;
  merchantId: number;
  merchantName: string;
  merchantUrl: string | null;
  /** The coupon's store: its page is `/store/<slug>`. */
  merchant: { id: number; name: string; slug: string | null; logoUrl: string | null };
  imageUrl: string | null;
  percentage: number;
  discountValue: number;
  expiresAt: string;
  categoryIds: number[];
  votes: number;
  /** 0-100, once the coupon has enough votes; null before. */
  successRate: number | null;
  usedToday: number;
  verifiedAt: string;
}

export interface CouponPage {
  data: CouponCard[];
  total: number;
}

export interface Category {
  id: number;
  name: string;
}

/** A picture's title and alt text in English, Hindi and Telugu (`textIn` picks one). */
export type PictureTexts = Translated<'title' | 'altText'>;

export interface Banner extends PictureTexts {
  id: number;
  position: string;
  imageUrl: string | null;
  merchantUrl: string | null;
}

/** The home page: one document with every text in the three languages. */
export interface Home {
  heroes: Array<
    PictureTexts & { id: number; imageUrl: string | null; merchantUrl: string | null; sortOrder: number }
  >;
  banners: Record<'cat' | 'Tc' | 'Bo' | 'left' | 'right', Banner[]>;
  topCoupons: CouponCard[];
  seasonalOffers: Array<PictureTexts & { slot: number; imageUrl: string | null; merchantUrl: string | null }>;
  flashText:
    | (Translated<'text'> & {
        text: string;
        contentType: 'text' | 'image';
        position: string;
        merchantUrl: string | null;
        imageUrl: string | null;
      })
    | null;
  bestOfferBanner:
    | (Translated<'name'> & {
        name: string;
        imageUrl: string | null;
        merchantUrl: string | null;
        uploadedAt: string;
      })
    | null;
}

export interface Product {
  id: number;
  productName: string;
  brand: string | null;
  description: string | null;
  price: string;
  merchantUrl: string | null;
  images: { small: string | null; medium: string | null; large: string | null };
}

export interface Store {
  merchantId: number;
  /** The store's address on this site: `/store/<slug>`. */
  slug: string;
  storeName: string;
  storeAddress: string | null;
  tagline: string | null;
  aboutDescription: string | null;
  logoUrl: string | null;
  landingBannerUrl: string | null;
  heroBannerUrl: string | null;
  updatedAt: string;
  categories: Array<{ id: number; categoryName: string; description: string | null; products: Product[] }>;
  uncategorised: Product[];
}

/** A store in the A-Z index (`GET /api/stores`). */
export interface StoreSummary {
  merchantId: number;
  slug: string;
  storeName: string;
  logoUrl: string | null;
  liveCoupons: number;
  updatedAt: string;
}

export interface StoreList {
  data: StoreSummary[];
  total: number;
}

export interface Me {
  role: 'user' | 'merchant' | 'admin';
  id: number;
  name: string;
}

export interface Profile {
  userName: string;
  mobileNumber: string;
  emailAddress: string;
  address: string;
  referralCode: string;
}

export interface Referral {
  code: string;
  link: string;
  message: string;
  whatsappUrl: string;
}

/** Newest first, a page at a time; a referral bonus has no coupon, merchant or purchase amount. */
export interface Earnings {
  purchaseHistory: Array<{
    id: number;
    type: 'cashback' | 'referral';
    couponId: number | null;
    merchantId: number | null;
    purchaseType: string;
    purchaseAmount: string | null;
    cashback: string;
    state: 'pending' | 'confirmed' | 'paid' | 'cancelled';
    date: string;
  }>;
  totals: { pending: string; confirmed: string; paid: string; cancelled: string };
  total: number;
  page: number;
  perPage: number;
}
