import type { EntityManager } from 'typeorm';
import { LIVE_COUPON_SQL } from '../../coupons/queries/coupon-status.js';
import { mediaUrl } from '../../media/media.js';
import { paiseToRupees } from '../../rules/money.js';
import type { StorePage, StorePageProduct } from './answers.js';
import { PUBLIC_MERCHANT_SQL, STORE_JOIN, STORE_LOGO_SQL, STORE_NAME_SQL } from './store-identity.js';

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
  // The store's coupons are read by the store's index alone (OFFSET 0): planned with the index of
  // live coupons by expiry as well, each page read every live coupon of the catalogue (20 ms at
  // 100,000), and the workers build a page for every coupon an import approves.
  const [store] = await manager.query(
    `SELECT s.merchant_id AS saved, s.store_address, s.tagline, s.about_description, s.landing_banner_id,
            s.hero_banner_image_id, ${STORE_LOGO_SQL} AS logo_id, ${STORE_NAME_SQL} AS store_name, m.slug,
            coalesce(s.updated_date, m.registered_on) AS updated_at,
            EXISTS (SELECT 1 FROM merchant_stores x WHERE x.merchant_id = m.id) AS has_store,
            EXISTS (SELECT 1 FROM (SELECT status, expiry_date FROM coupons WHERE merchant_id = m.id OFFSET 0) c
                    WHERE ${LIVE_COUPON_SQL('c')})
              OR EXISTS (SELECT 1 FROM products p WHERE p.merchant_id = m.id AND p.status = 'approved') AS has_offers
     FROM merchants m ${STORE_JOIN}
     WHERE m.id = $1 AND ${PUBLIC_MERCHANT_SQL}`,
    [merchantId],
  );
  if (!store) return undefined;
  if (store.saved === null && (store.has_store || !store.has_offers)) return undefined;
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
    slug: store.slug,
    storeName: store.store_name,
    storeAddress: store.store_address ?? '',
    tagline: store.tagline ?? '',
    aboutDescription: store.about_description ?? '',
    logoUrl: mediaUrl(store.logo_id),
    landingBannerUrl: mediaUrl(store.landing_banner_id),
    heroBannerUrl: mediaUrl(store.hero_banner_image_id),
    updatedAt: new Date(store.updated_at).toISOString(),
    categories: categories.map((category: Record<string, never>) => ({
      id: category.id,
      categoryName: category.category_name,
      description: category.description,
      products: shelves.get(category.id)!,
    })),
    uncategorised: shelves.get(null)!,
  };
}
