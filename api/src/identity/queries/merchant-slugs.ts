import type { EntityManager } from 'typeorm';
import { storeSlug } from '../../rules/addresses.js';

/**
 * Gives a merchant its store address (`/store/<slug>`) from its brand name, else its merchant
 * name, else its id: unique, and never changed afterwards, so links and search results keep
 * working when the store is renamed. A taken slug gets the first free `-2`, `-3`, ... suffix.
 */
export async function assignMerchantSlug(
  manager: EntityManager,
  merchantId: number,
  names: { brandName: string; merchantName: string },
): Promise<string> {
  const base = storeSlug(names.brandName, names.merchantName) || `store-${merchantId}`;
  // Two registrations of one brand at once would pick the same free suffix.
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`merchant-slug:${base}`]);
  const taken: Array<{ slug: string }> = await manager.query(
    `SELECT slug FROM merchants WHERE slug = $1 OR slug LIKE $2`,
    [base, `${base}-%`],
  );
  const used = new Set(taken.map((row) => row.slug));
  let slug = base;
  for (let suffix = 2; used.has(slug); suffix += 1) slug = `${base}-${suffix}`;
  await manager.query('UPDATE merchants SET slug = $2 WHERE id = $1', [merchantId, slug]);
  return slug;
}
