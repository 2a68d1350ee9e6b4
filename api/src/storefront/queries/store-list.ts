import type { DataSource } from 'typeorm';
import type { CashbackDefaults } from '../../cashback/queries/rates.js';
import { cashbackUpTo, storeCashbackShown } from '../../cashback/queries/shown.js';
import { liveListingCounts } from '../../coupons/queries/listed-coupons.js';
import { everyMerchantAsStore } from '../../identity/queries/store-identities.js';
import type { ListRequest } from '../../infrastructure/http/react-admin.js';
import type { StoreList, StoreSummary } from './answers.js';
import { activeStores, storeName } from './store-identity.js';

export type { StoreSummary };

/**
 * The stores with a public page, A-Z by name (ties by merchant id), with their live coupons
 * counted and their best cashback rate (each read for all the page's stores at once).
 */
export async function listStores(
  dataSource: DataSource,
  page: number,
  perPage: number,
  defaults: CashbackDefaults,
): Promise<StoreList> {
  const [rows, total] = await Promise.all([
    dataSource.query(
      `SELECT p.merchant_id, p.slug, p.document->>'storeName' AS store_name, p.document->>'logoUrl' AS logo_url,
              p.updated_at
       FROM store_pages p
       ORDER BY lower(p.document->>'storeName'), p.merchant_id
       LIMIT $1 OFFSET $2`,
      [perPage, (page - 1) * perPage],
    ),
    storePageCount(dataSource),
  ]);
  const merchantIds = rows.map((row: { merchant_id: number }) => row.merchant_id);
  const [cashback, liveCoupons] = await Promise.all([
    cashbackUpTo(dataSource, merchantIds, [], defaults),
    liveListingCounts(dataSource, merchantIds),
  ]);
  return {
    total,
    data: rows.map((row: Record<string, never>) => ({
      merchantId: row.merchant_id,
      slug: row.slug,
      storeName: row.store_name,
      logoUrl: row.logo_url,
      liveCoupons: liveCoupons.get(row.merchant_id) ?? 0,
      updatedAt: new Date(row.updated_at).toISOString(),
      cashback: cashback.store(row.merchant_id),
    })),
  };
}

/** How many stores have a public page. */
export async function storePageCount(reader: Pick<DataSource, 'query'>): Promise<number> {
  const [{ total }] = await reader.query('SELECT count(*)::int AS total FROM store_pages');
  return total;
}

/**
 * A store's page as its JSON text, by merchant id (digits) or slug, with its cashback as it stands
 * (the rates are read now, not kept in the read model: a store's page follows a change of its
 * rates at once, and the default rate is a setting); undefined when it has none.
 */
export async function storePageText(
  dataSource: Pick<DataSource, 'query'>,
  address: string,
  defaults: CashbackDefaults,
): Promise<string | undefined> {
  // Slugs are never all digits: digits are a merchant id (ids fit in 9 digits here).
  const byId = /^\d+$/.test(address);
  if (byId && !/^[1-9]\d{0,8}$/.test(address)) return undefined;
  const [row] = await dataSource.query(
    `SELECT merchant_id AS "storeId", document AS body FROM store_pages
     WHERE ${byId ? 'merchant_id = $1::int' : 'slug = $1'}`,
    [address],
  );
  if (!row) return undefined;
  const cashback = await storeCashbackShown(dataSource, row.storeId, defaults);
  return JSON.stringify({ ...row.body, cashback });
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

export const ADMIN_STORE_SORTS = ['id', 'name'] as const;

export interface AdminStoreAnswer {
  id: number;
  name: string;
  slug: string | null;
  siteUrl: string;
  /** A store made by an admin for a network's advertiser: nobody signs in to it. */
  withoutAccount: boolean;
  hidden: boolean;
}

/**
 * Every store, public or not, for an admin choosing one (an advertiser's store, a claim): its
 * name as shown, address and site; filters: `q` (in the name or the address), `withoutAccount`,
 * `id` (react-admin's getMany). The merchants come from identity and their saved stores from here,
 * a question each; the stores are then matched, ordered and counted by the database as a
 * statement over those rows (no table), so `ILIKE` and `lower()` under its collation decide as
 * they always have.
 */
export async function adminStorePage(
  reader: Pick<DataSource, 'query'>,
  page: ListRequest<(typeof ADMIN_STORE_SORTS)[number]>,
  filter: { q?: string; withoutAccount?: boolean; ids?: number[] },
): Promise<{ rows: AdminStoreAnswer[]; total: number }> {
  const merchants = await everyMerchantAsStore(reader, filter);
  const stores = await activeStores(
    reader,
    merchants.map((merchant) => merchant.id),
  );
  const names = merchants.map((merchant) => storeName(stores.get(merchant.id)?.storeName, merchant));
  const order = page.sortField === 'name' ? 'lower(s.name)' : 's.id';
  const matching: Array<{ at: number }> = await reader.query(
    `SELECT s.at::int AS at FROM unnest($2::int[], $3::text[], $4::text[]) WITH ORDINALITY AS s(id, name, slug, at)
     WHERE $1::text IS NULL OR s.name ILIKE '%' || $1 || '%' OR s.slug ILIKE '%' || $1 || '%'
     ORDER BY ${order} ${page.order}, s.id ${page.order}`,
    [
      filter.q ?? null,
      merchants.map((merchant) => merchant.id),
      names,
      merchants.map((merchant) => merchant.slug),
    ],
  );
  const rows = matching.slice(page.offset, page.offset + page.limit).map(({ at }) => {
    const merchant = merchants[at - 1];
    return {
      id: merchant.id,
      name: names[at - 1],
      slug: merchant.slug,
      siteUrl: merchant.siteUrl,
      withoutAccount: merchant.withoutAccount,
      hidden: merchant.hidden,
    };
  });
  return { rows, total: matching.length };
}

/** Every store page's address and store name, by merchant id. */
export function storePageNames(
  reader: Pick<DataSource, 'query'>,
): Promise<Array<{ slug: string; name: string }>> {
  return reader.query(`SELECT slug, document->>'storeName' AS name FROM store_pages ORDER BY merchant_id`);
}
