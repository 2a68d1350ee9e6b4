import { StorePageProjection } from '@offers/workers/consumers';
import type { Session } from './accounts.js';
import { multipart } from './coupons.js';
import { type Marketplace, startMarketplace } from './marketplace.js';
import { eventually } from './test-environment.js';

/** The API and the workers with the store page projection, an admin and the demo slots. */
export const startStorefront = (name: string) => startMarketplace(name, { consumers: [StorePageProjection] });

/** A generated PNG of the given size (a colour gradient, so it does not compress to nothing). */
export async function pngOf(width: number, height: number, colour = { r: 200, g: 60, b: 120 }) {
  const { default: sharp } = await import('sharp');
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i += 1) {
    pixels[i * 3] = colour.r;
    pixels[i * 3 + 1] = (colour.g + (i % width)) % 256;
    pixels[i * 3 + 2] = colour.b;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

export const png = (bytes: Buffer, name = 'image.png') => ({ name, type: 'image/png', bytes });

export function inject(
  market: Marketplace,
  method: string,
  url: string,
  headers: Record<string, string> = {},
  payload?: unknown,
) {
  return market.api.http.inject({ method, url, headers, payload });
}

/** Sends a multipart form. */
export function sendForm(
  market: Marketplace,
  method: string,
  url: string,
  headers: Record<string, string>,
  fields: Record<string, unknown>,
  files: Parameters<typeof multipart>[1] = {},
) {
  const form = multipart(fields, files);
  return market.api.http.inject({
    method,
    url,
    headers: { ...headers, ...form.headers },
    payload: form.payload,
  });
}

export async function saveStore(
  market: Marketplace,
  merchant: Session,
  fields: Record<string, unknown> = {},
) {
  const response = await inject(market, 'PUT', '/api/merchant/store', merchant.bearer, {
    storeName: 'Glow Store',
    tagline: 'Skin care made in India',
    ...fields,
  });
  if (response.statusCode !== 200) throw new Error(`store not saved: ${response.body}`);
  return response.json();
}

export async function createCategory(market: Marketplace, merchant: Session, categoryName: string) {
  const response = await inject(market, 'POST', '/api/merchant/categories', merchant.bearer, {
    categoryName,
    description: `All ${categoryName.toLowerCase()}`,
  });
  if (response.statusCode !== 201) throw new Error(`category not created: ${response.body}`);
  return response.json().id as number;
}

let smallImage: Buffer | undefined;

/** A store product (JSON, one image as a data URL) in the given category; returns its id. */
export async function submitProduct(
  market: Marketplace,
  merchant: Session,
  categoryId: number,
  overrides: Record<string, unknown> = {},
) {
  smallImage ??= await pngOf(40, 30);
  const response = await inject(market, 'POST', '/api/merchant/products', merchant.bearer, {
    categoryId,
    productName: 'Vitamin C serum',
    brand: 'Glow',
    price: '1299.50',
    description: 'Brightening serum, 30 ml.',
    imageLarge: `data:image/png;base64,${smallImage.toString('base64')}`,
    ...overrides,
  });
  if (response.statusCode !== 201) throw new Error(`product not submitted: ${response.body}`);
  return response.json().id as number;
}

export function approveProduct(market: Marketplace, productId: number) {
  return inject(market, 'POST', `/api/admin/products/${productId}/approve`, market.admin);
}

export async function storePage(market: Marketplace, merchantId: number) {
  return inject(market, 'GET', `/api/stores/${merchantId}`);
}

/** The ids of the products the public page shows, whatever their shelf. */
export async function productsOnPage(market: Marketplace, merchantId: number): Promise<number[]> {
  const response = await storePage(market, merchantId);
  if (response.statusCode !== 200) return [];
  const page = response.json();
  return [
    ...page.categories.flatMap((category: { products: Array<{ id: number }> }) => category.products),
    ...page.uncategorised,
  ].map((product: { id: number }) => product.id);
}

export function untilOnPage(
  market: Marketplace,
  merchantId: number,
  productId: number,
  shown = true,
  ms = 5_000,
) {
  return eventually(
    async () => (await productsOnPage(market, merchantId)).includes(productId) === shown,
    `product ${productId} ${shown ? 'on' : 'off'} the store page`,
    ms,
  );
}
