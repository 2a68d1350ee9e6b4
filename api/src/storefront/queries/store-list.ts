import type { DataSource } from 'typeorm';
import type { StoreList, StoreSummary } from './answers.js';

export type { StoreSummary };

/** The stores with a public page, A-Z by name (ties by merchant id), with their live coupons counted. */
export async function listStores(dataSource: DataSource, page: number, perPage: number): Promise<StoreList> {
  const [rows, [{ total }]] = await Promise.all([
    dataSource.query(
      `SELECT p.merchant_id, p.slug, p.document->>'storeName' AS store_name, p.document->>'logoUrl' AS logo_url,
              p.updated_at,
              (SELECT count(*)::int FROM coupon_listings l
                WHERE l.merchant_id = p.merchant_id AND l.expires_at > now()) AS live_coupons
       FROM store_pages p
       ORDER BY lower(p.document->>'storeName'), p.merchant_id
       LIMIT $1 OFFSET $2`,
      [perPage, (page - 1) * perPage],
    ),
    dataSource.query('SELECT count(*)::int AS total FROM store_pages'),
  ]);
  return {
    total,
    data: rows.map((row: Record<string, never>) => ({
      merchantId: row.merchant_id,
      slug: row.slug,
      storeName: row.store_name,
      logoUrl: row.logo_url,
      liveCoupons: row.live_coupons,
      updatedAt: new Date(row.updated_at).toISOString(),
    })),
  };
}

/** A store's page as its JSON text, by merchant id (digits) or slug; undefined when it has none. */
export async function storePageText(
  dataSource: Pick<DataSource, 'query'>,
  address: string,
): Promise<string | undefined> {
  // Slugs are never all digits: digits are a merchant id (ids fit in 9 digits here).
  const byId = /^\d+$/.test(address);
  if (byId && !/^[1-9]\d{0,8}$/.test(address)) return undefined;
  const [row] = await dataSource.query(
    `SELECT document::text AS body FROM store_pages WHERE ${byId ? 'merchant_id = $1::int' : 'slug = $1'}`,
    [address],
  );
  return row?.body;
}

/** Every public store's address and when its page last changed (for sitemaps), A-Z by slug. */
export async function storeAddresses(
  dataSource: DataSource,
): Promise<Array<{ slug: string; updatedAt: string }>> {
  const rows: Array<{ slug: string; updated_at: Date }> = await dataSource.query(
    'SELECT slug, updated_at FROM store_pages WHERE slug IS NOT NULL ORDER BY slug',
  );
  return rows.map((row) => ({ slug: row.slug, updatedAt: new Date(row.updated_at).toISOString() }));
}
