import type { EntityManager } from 'typeorm';

type Reader = Pick<EntityManager, 'query'>;

/**
 * SQL over `merchants m`: a merchant that may be shown to shoppers: email confirmed (or a store
 * without an account, made by an admin for a network's advertiser: it has no email), store not
 * hidden by an admin.
 */
export const PUBLIC_MERCHANT_SQL = '(m.is_email_confirmed OR m.user_name IS NULL) AND NOT m.store_hidden';

/**
 * What a merchant's account gives its store wherever the store is shown: the names it goes by when
 * its saved store has none, its page's address, its site, and whether shoppers may see it.
 */
export interface MerchantAsStore {
  id: number;
  brandName: string | null;
  merchantName: string;
  slug: string | null;
  siteUrl: string;
  isPublic: boolean;
  /** A store made by an admin for a network's advertiser: nobody signs in to it (it may be claimed). */
  withoutAccount: boolean;
  registeredOn: Date;
}

/** The merchants' store-facing details, by id (merchants that do not exist are left out), in one query. */
export async function merchantsAsStores(
  reader: Reader,
  merchantIds: readonly number[],
): Promise<Map<number, MerchantAsStore>> {
  if (merchantIds.length === 0) return new Map();
  const rows: MerchantAsStore[] = await reader.query(
    `SELECT m.id, m.brand_name AS "brandName", m.merchant_name AS "merchantName", m.slug,
            m.merchant_url AS "siteUrl", coalesce(${PUBLIC_MERCHANT_SQL}, false) AS "isPublic",
            m.user_name IS NULL AS "withoutAccount",
            m.registered_on AS "registeredOn"
     FROM merchants m WHERE m.id = ANY($1::int[])`,
    [merchantIds],
  );
  return new Map(rows.map((row) => [row.id, row]));
}
