import type { EntityManager } from 'typeorm';
import { MERCHANT_TRACKING_COLUMNS, type MerchantTracking } from './merchant-tracking.js';

type Reader = Pick<EntityManager, 'query'>;

/**
 * SQL over `merchants m`: a merchant that may be shown to shoppers: email confirmed (or a store
 * without an account, made by an admin for a network's advertiser: it has no email), store not
 * hidden by an admin.
 */
const PUBLIC_MERCHANT_SQL = '(m.is_email_confirmed OR m.user_name IS NULL) AND NOT m.store_hidden';

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
  /** Hidden from shoppers by an admin. */
  hidden: boolean;
  registeredOn: Date;
}

const MERCHANT_AS_STORE_COLUMNS = `
  m.id, m.brand_name AS "brandName", m.merchant_name AS "merchantName", m.slug,
  m.merchant_url AS "siteUrl", coalesce(${PUBLIC_MERCHANT_SQL}, false) AS "isPublic",
  m.user_name IS NULL AS "withoutAccount", m.store_hidden AS hidden, m.registered_on AS "registeredOn"`;

/** The merchants' store-facing details, by id (merchants that do not exist are left out), in one query. */
export async function merchantsAsStores(
  reader: Reader,
  merchantIds: readonly number[],
): Promise<Map<number, MerchantAsStore>> {
  if (merchantIds.length === 0) return new Map();
  const rows: MerchantAsStore[] = await reader.query(
    `SELECT ${MERCHANT_AS_STORE_COLUMNS} FROM merchants m WHERE m.id = ANY($1::int[])`,
    [merchantIds],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The merchants' store-facing details and their tracking, by id, in one query: what following a
 * coupon to its store needs (is the store shown, where does the link go, which sub-id it carries).
 */
export async function merchantsAsTrackedStores(
  reader: Reader,
  merchantIds: readonly number[],
): Promise<Map<number, MerchantAsStore & MerchantTracking>> {
  if (merchantIds.length === 0) return new Map();
  const rows: Array<MerchantAsStore & MerchantTracking> = await reader.query(
    `SELECT ${MERCHANT_AS_STORE_COLUMNS}, ${MERCHANT_TRACKING_COLUMNS('m')}
     FROM merchants m WHERE m.id = ANY($1::int[])`,
    [merchantIds],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Every merchant's store-facing details, public or not, in id order, for an admin choosing a
 * store; filters: with or without an account (`withoutAccount`), these ids (`ids`).
 */
export function everyMerchantAsStore(
  reader: Reader,
  filter: { withoutAccount?: boolean; ids?: readonly number[] },
): Promise<MerchantAsStore[]> {
  return reader.query(
    `SELECT ${MERCHANT_AS_STORE_COLUMNS} FROM merchants m
     WHERE ($1::boolean IS NULL OR (m.user_name IS NULL) = $1) AND ($2::int[] IS NULL OR m.id = ANY($2))
     ORDER BY m.id`,
    [filter.withoutAccount ?? null, filter.ids ?? null],
  );
}
