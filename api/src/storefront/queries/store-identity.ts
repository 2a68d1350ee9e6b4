import type { EntityManager } from 'typeorm';
import { type MerchantAsStore, merchantsAsStores } from '../../identity/queries/store-identities.js';

/** Whether the merchant saved a store, a category or a product (a store claim needs none). */
export async function merchantHasStorefront(
  reader: { query(sql: string, parameters?: unknown[]): Promise<unknown[]> },
  merchantId: number,
): Promise<boolean> {
  const rows = await reader.query(
    `SELECT 1 WHERE EXISTS (SELECT 1 FROM merchant_stores WHERE merchant_id = $1)
        OR EXISTS (SELECT 1 FROM merchant_categories WHERE merchant_id = $1)
        OR EXISTS (SELECT 1 FROM products WHERE merchant_id = $1)`,
    [merchantId],
  );
  return rows.length > 0;
}

/** A store as other features name it: its shown name and its page's address (null without one). */
export interface StoreName {
  id: number;
  name: string;
  slug: string | null;
}

/**
 * How a store is named wherever it appears (its page, coupon cards, the A-Z index, the admins'
 * lists): the name the merchant gave its store, else its brand name, else its registered name.
 * Empty names count as none. Its logo is its active saved store's, if any.
 */
export const storeName = (storeName: string | null | undefined, merchant: MerchantAsStore) =>
  storeName || merchant.brandName || merchant.merchantName;

/** A store as coupon cards and lists show it, and whether shoppers may see it. */
export interface StoreIdentity extends StoreName {
  logoId: string | null;
  siteUrl: string;
  isPublic: boolean;
  /** A store made by an admin for a network's advertiser: nobody signs in to it. */
  withoutAccount: boolean;
}

/**
 * The stores' identities, by id (stores that do not exist are left out): the merchant's account
 * from identity and its active saved store from here, one query each whatever the number of stores.
 */
export async function storeIdentities(
  reader: Pick<EntityManager, 'query'>,
  merchantIds: readonly number[],
): Promise<Map<number, StoreIdentity>> {
  const ids = [...new Set(merchantIds)];
  const merchants = await merchantsAsStores(reader, ids);
  if (merchants.size === 0) return new Map();
  const storeOf = await activeStores(reader, [...merchants.keys()]);
  const identities = new Map<number, StoreIdentity>();
  for (const merchant of merchants.values()) {
    const store = storeOf.get(merchant.id);
    identities.set(merchant.id, {
      id: merchant.id,
      name: storeName(store?.storeName, merchant),
      slug: merchant.slug,
      logoId: store?.logoId ?? null,
      siteUrl: merchant.siteUrl,
      isPublic: merchant.isPublic,
      withoutAccount: merchant.withoutAccount,
    });
  }
  return identities;
}

/** The merchants' active saved stores, by merchant id (merchants without one are left out), in one query. */
export async function activeStores(
  reader: Pick<EntityManager, 'query'>,
  merchantIds: readonly number[],
): Promise<Map<number, { merchantId: number; storeName: string | null; logoId: string | null }>> {
  if (merchantIds.length === 0) return new Map();
  const stores: Array<{ merchantId: number; storeName: string | null; logoId: string | null }> =
    await reader.query(
      `SELECT merchant_id AS "merchantId", store_name AS "storeName", merchant_logo_id AS "logoId"
       FROM merchant_stores WHERE is_active AND merchant_id = ANY($1::int[])`,
      [merchantIds],
    );
  return new Map(stores.map((store) => [store.merchantId, store]));
}

/** The stores' shown names, by id (stores that do not exist are left out). */
export async function storeNames(
  reader: Pick<EntityManager, 'query'>,
  merchantIds: readonly number[],
): Promise<Map<number, StoreName>> {
  const identities = await storeIdentities(reader, merchantIds);
  return new Map([...identities].map(([id, { name, slug }]) => [id, { id, name, slug }]));
}
