import type { EntityManager } from 'typeorm';
import { storeHasLiveCoupon } from '../../coupons/queries/listed-coupons.js';
import { merchantsAsStores } from '../../identity/queries/store-identities.js';
import { mediaUrl } from '../../media/media.js';
import { paiseToRupees } from '../../rules/money.js';
import type { StorePage, StorePageProduct } from './answers.js';
import { storeName } from './store-identity.js';

export type { StorePage, StorePageProduct };

/** A store page as the read model keeps it: its cashback is added when the page is read. */
export type StoreDocument = Omit<StorePage, 'cashback'>;

/**
 * Builds a merchant's store page from the write tables: the active store, its active categories
 * (in the order they were made) and its approved products, newest first, each under its category
 * or, without one, in `uncategorised`. Products of an inactive category are not shown. A merchant
 * that never saved a store still has a page while it has a live coupon or an approved product: a
 * default one from its profile (its brand name). Undefined when the merchant has no page: not
 * public (email unconfirmed, hidden by an admin), a store it deactivated, or nothing to show.
 */
export async function buildStorePage(
  manager: EntityManager,
  merchantId: number,
): Promise<StoreDocument | undefined> {
  const merchant = (await merchantsAsStores(manager, [merchantId])).get(merchantId);
  if (!merchant?.isPublic) return undefined;
  // The store row whether active or not: a store the merchant deactivated has no page.
  const [storeRow] = await manager.query(
    `SELECT is_active, store_name, store_address, tagline, about_description, landing_banner_id,
            hero_banner_image_id, merchant_logo_id, updated_date
     FROM merchant_stores WHERE merchant_id = $1`,
    [merchantId],
  );
  const store = storeRow?.is_active ? storeRow : undefined;
  if (!store && (storeRow || !(await hasOffers(manager, merchantId)))) return undefined;
  const categories = await manager.query(
    'SELECT id, category_name, description FROM merchant_categories WHERE merchant_id = $1 AND is_active ORDER BY id',
    [merchantId],
  );
  const products = await manager.query(
    `SELECT id, category_id, product_name, brand, description, price_paise::text AS price_text, merchant_url,
              image_small_id, image_medium_id, image_large_id
       FROM products WHERE merchant_id = $1 AND status = 'approved' ORDER BY reviewed_at DESC, id DESC`,
    [merchantId],
  );
  const shelves = new Map<number | null, StorePageProduct[]>([[null, []]]);
  for (const category of categories) shelves.set(category.id, []);
  for (const row of products) {
    shelves.get(row.category_id)?.push({
      id: row.id,
      productName: row.product_name,
      brand: row.brand,
      description: row.description,
      price: paiseToRupees(Number(row.price_text)),
      merchantUrl: row.merchant_url,
      images: {
        small: mediaUrl(row.image_small_id),
        medium: mediaUrl(row.image_medium_id),
        large: mediaUrl(row.image_large_id),
      },
    });
  }
  return {
    merchantId,
    // Every merchant with a public page has its address (given at registration or by the migration).
    slug: merchant.slug as string,
    storeName: storeName(store?.store_name, merchant),
    storeAddress: store?.store_address ?? '',
    tagline: store?.tagline ?? '',
    aboutDescription: store?.about_description ?? '',
    logoUrl: mediaUrl(store?.merchant_logo_id ?? null),
    landingBannerUrl: mediaUrl(store?.landing_banner_id ?? null),
    heroBannerUrl: mediaUrl(store?.hero_banner_image_id ?? null),
    updatedAt: new Date(store?.updated_date ?? merchant.registeredOn).toISOString(),
    categories: categories.map((category: Record<string, never>) => ({
      id: category.id,
      categoryName: category.category_name,
      description: category.description,
      products: shelves.get(category.id)!,
    })),
    uncategorised: shelves.get(null)!,
  };
}

/** A live coupon or an approved product: what gives a store that never saved a page a default one. */
async function hasOffers(manager: EntityManager, merchantId: number): Promise<boolean> {
  if (await storeHasLiveCoupon(manager, merchantId)) return true;
  const products = await manager.query(
    "SELECT 1 FROM products WHERE merchant_id = $1 AND status = 'approved' LIMIT 1",
    [merchantId],
  );
  return products.length > 0;
}
