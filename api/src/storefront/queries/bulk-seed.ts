import type { EntityManager } from 'typeorm';

/**
 * Store pages written directly in the shape the store page projection keeps (the page as the JSON
 * text it is sent as), for the benchmarks that need them in place before they measure.
 */

type Writer = Pick<EntityManager, 'query'>;

/** A page per store holding only its name (no logo): what the search box reads of stores. */
export async function seedStoreNamePagesInBulk(
  manager: Writer,
  stores: ReadonlyArray<{ merchantId: number; slug: string | null; storeName: string }>,
): Promise<void> {
  await manager.query(
    `INSERT INTO store_pages (merchant_id, slug, document)
     SELECT id, slug, json_build_object('storeName', store_name, 'logoUrl', null)
     FROM unnest($1::int[], $2::text[], $3::text[]) AS s(id, slug, store_name)`,
    [
      stores.map((store) => store.merchantId),
      stores.map((store) => store.slug),
      stores.map((store) => store.storeName),
    ],
  );
}

/**
 * A store's page with its coupons (`coupons`, the JSON text of an array of listing rows), a
 * tagline and no categories or products.
 */
export async function seedStorePageWithCoupons(
  manager: Writer,
  store: { merchantId: number; slug: string; storeName: string; siteUrl: string; coupons: string },
): Promise<void> {
  await manager.query(
    `INSERT INTO store_pages (merchant_id, slug, document)
     SELECT $1::int, $2::text, json_build_object(
              'merchantId', $1::int, 'storeName', $3::text, 'slug', $2::text, 'tagline', 'Everyday offers',
              'websiteUrl', $4::text, 'categories', '[]'::json, 'products', '[]'::json, 'coupons', $5::json)`,
    [store.merchantId, store.slug, store.storeName, store.siteUrl, store.coupons],
  );
}
