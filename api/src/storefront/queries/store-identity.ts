/**
 * How a store is named and shown wherever it appears (its page, coupon cards, the A-Z index): the
 * name the merchant gave its store, else its brand name, else its registered name; the logo of its
 * saved store, if any. One definition for SQL over `merchants m` left-joined to its active store
 * `merchant_stores s` (`STORE_JOIN`).
 */
export const STORE_JOIN = 'LEFT JOIN merchant_stores s ON s.merchant_id = m.id AND s.is_active';
export const STORE_NAME_SQL = "coalesce(nullif(s.store_name, ''), nullif(m.brand_name, ''), m.merchant_name)";
export const STORE_LOGO_SQL = 's.merchant_logo_id';

/**
 * A merchant that may be shown to shoppers: email confirmed (or a store without an account, made
 * by an admin for a network's advertiser: it has no email), store not hidden by an admin.
 */
export const PUBLIC_MERCHANT_SQL = '(m.is_email_confirmed OR m.user_name IS NULL) AND NOT m.store_hidden';

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

/** Stores' names as shoppers see them, by merchant id. */
export async function storeNames(
  reader: { query(sql: string, parameters?: unknown[]): Promise<unknown[]> },
  merchantIds: readonly number[],
): Promise<Map<number, string>> {
  if (merchantIds.length === 0) return new Map();
  const rows = (await reader.query(
    `SELECT m.id, ${STORE_NAME_SQL} AS name FROM merchants m ${STORE_JOIN} WHERE m.id = ANY($1::int[])`,
    [merchantIds],
  )) as Array<{ id: number; name: string }>;
  return new Map(rows.map((row) => [row.id, row.name]));
}
