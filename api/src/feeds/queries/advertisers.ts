import type { DataSource, EntityManager } from 'typeorm';
import { categoriesNamed, categoryNamesOf } from '../../coupons/queries/category-names.js';
import type { ListRequest } from '../../infrastructure/http/react-admin.js';
import { storeIdentities } from '../../storefront/queries/store-identity.js';

/**
 * SQL of `feed_advertisers` and `feed_categories` (see migration FeedAdvertisers1764930000000):
 * the networks' advertisers and the stores they are, the networks' categories and ours.
 */

type Reader = Pick<DataSource | EntityManager, 'query'>;

/** The store (merchant id) a source's advertiser is mapped to; null while it is not mapped. */
export async function advertiserStore(
  manager: Reader,
  sourceId: number,
  advertiserId: string,
): Promise<number | null> {
  const [row] = await manager.query(
    'SELECT merchant_id FROM feed_advertisers WHERE source_id = $1 AND advertiser_id = $2',
    [sourceId, advertiserId],
  );
  return row?.merchant_id ?? null;
}

/**
 * Notes an advertiser whose rows a run read but could not place: not mapped to a store yet. It
 * joins the admin's queue the first time; afterwards its name and site are refreshed (a network
 * may send them on some rows only) and `rowsWaiting` replaces the last run's count, or, when the
 * same run notes it again (`runId` given, e.g. once per batch), adds to it. An advertiser mapped
 * meanwhile is left as it is.
 */
export async function noteUnmappedAdvertiser(
  manager: Reader,
  sourceId: number,
  advertiser: { id: string; name: string | null; siteUrl: string | null },
  rowsWaiting: number,
  runId?: number,
): Promise<void> {
  await manager.query(
    `INSERT INTO feed_advertisers AS a (source_id, advertiser_id, name, site_url, rows_waiting, last_run_id)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (source_id, advertiser_id) DO UPDATE SET
       name = coalesce(EXCLUDED.name, a.name),
       site_url = coalesce(EXCLUDED.site_url, a.site_url),
       rows_waiting = CASE WHEN EXCLUDED.last_run_id IS NOT NULL AND EXCLUDED.last_run_id = a.last_run_id
                           THEN a.rows_waiting + EXCLUDED.rows_waiting ELSE EXCLUDED.rows_waiting END,
       last_run_id = EXCLUDED.last_run_id,
       last_seen_at = now()
     WHERE a.merchant_id IS NULL`,
    [
      sourceId,
      advertiser.id.slice(0, 200),
      advertiser.name?.slice(0, 200) || null,
      advertiser.siteUrl?.slice(0, 2048) || null,
      Math.max(0, Math.trunc(rowsWaiting)),
      runId ?? null,
    ],
  );
}

/** The row of a source's advertiser (its id in `feed_advertisers`), once noted. */
export async function feedAdvertiserId(
  reader: Reader,
  sourceId: number,
  advertiserId: string,
): Promise<number | undefined> {
  const [row] = await reader.query(
    'SELECT id FROM feed_advertisers WHERE source_id = $1 AND advertiser_id = $2',
    [sourceId, advertiserId],
  );
  return row?.id;
}

export const FEED_ADVERTISER_SORTS = ['id', 'name', 'sourceId', 'rowsWaiting', 'lastSeenAt'] as const;
const ADVERTISER_SORT_COLUMNS: Record<(typeof FEED_ADVERTISER_SORTS)[number], string> = {
  id: 'a.id',
  name: 'lower(a.name)',
  sourceId: 'a.source_id',
  rowsWaiting: 'a.rows_waiting',
  lastSeenAt: 'a.last_seen_at',
};

export interface FeedAdvertiserAnswer {
  id: number;
  sourceId: number;
  sourceName: string;
  advertiserId: string;
  name: string | null;
  siteUrl: string | null;
  merchantId: number | null;
  storeName: string | null;
  storeSlug: string | null;
  /** The store has no account yet: a registered merchant may claim it. */
  storeWithoutAccount: boolean | null;
  rowsWaiting: number;
  firstSeenAt: string;
  lastSeenAt: string;
  mappedAt: string | null;
}

const ADVERTISER_COLUMNS = `
  a.id, a.source_id AS "sourceId", src.name AS "sourceName", a.advertiser_id AS "advertiserId", a.name,
  a.site_url AS "siteUrl", a.merchant_id AS "merchantId",
  a.rows_waiting AS "rowsWaiting", a.first_seen_at AS "firstSeenAt", a.last_seen_at AS "lastSeenAt",
  a.mapped_at AS "mappedAt"`;

const ADVERTISER_FROM = 'feed_advertisers a JOIN feed_sources src ON src.id = a.source_id';

type AdvertiserRow = Omit<FeedAdvertiserAnswer, 'storeName' | 'storeSlug' | 'storeWithoutAccount'>;

/** The advertisers with the stores they are mapped to, as storefront names them (asked once for all). */
async function withStores(reader: Reader, rows: AdvertiserRow[]): Promise<FeedAdvertiserAnswer[]> {
  const stores = await storeIdentities(
    reader,
    rows.flatMap((row) => (row.merchantId === null ? [] : [row.merchantId])),
  );
  return rows.map(({ rowsWaiting, firstSeenAt, lastSeenAt, mappedAt, ...advertiser }) => {
    const store = advertiser.merchantId === null ? undefined : stores.get(advertiser.merchantId);
    return {
      ...advertiser,
      storeName: store?.name ?? null,
      storeSlug: store?.slug ?? null,
      storeWithoutAccount: store?.withoutAccount ?? null,
      rowsWaiting,
      firstSeenAt,
      lastSeenAt,
      mappedAt,
    };
  });
}

/** One page of advertisers; filters: `mapped` (false: the queue), `sourceId`, `q` (name or id). */
export async function feedAdvertiserPage(
  reader: Reader,
  page: ListRequest<(typeof FEED_ADVERTISER_SORTS)[number]>,
  filter: { mapped?: boolean; sourceId?: number; q?: string },
): Promise<{ rows: FeedAdvertiserAnswer[]; total: number }> {
  const where = `($1::boolean IS NULL OR (a.merchant_id IS NOT NULL) = $1)
    AND ($2::int IS NULL OR a.source_id = $2)
    AND ($3::text IS NULL OR a.name ILIKE '%' || $3 || '%' OR a.advertiser_id = $3)`;
  const parameters = [filter.mapped ?? null, filter.sourceId ?? null, filter.q ?? null];
  const [{ total }] = await reader.query(
    `SELECT count(*)::int AS total FROM feed_advertisers a WHERE ${where}`,
    parameters,
  );
  const rows = await reader.query(
    `SELECT ${ADVERTISER_COLUMNS} FROM ${ADVERTISER_FROM} WHERE ${where}
     ORDER BY ${ADVERTISER_SORT_COLUMNS[page.sortField]} ${page.order} NULLS LAST, a.id ${page.order}
     OFFSET $4 LIMIT $5`,
    [...parameters, page.offset, page.limit],
  );
  return { rows: await withStores(reader, rows), total };
}

export async function feedAdvertiser(reader: Reader, id: number): Promise<FeedAdvertiserAnswer | undefined> {
  const rows = await reader.query(`SELECT ${ADVERTISER_COLUMNS} FROM ${ADVERTISER_FROM} WHERE a.id = $1`, [
    id,
  ]);
  const [advertiser] = await withStores(reader, rows);
  return advertiser;
}

/** The advertiser as its commands change it, locked for the rest of the transaction. */
export async function lockFeedAdvertiser(
  manager: EntityManager,
  id: number,
): Promise<{ sourceId: number; advertiserId: string; merchantId: number | null } | undefined> {
  const [row] = await manager.query(
    `SELECT source_id AS "sourceId", advertiser_id AS "advertiserId", merchant_id AS "merchantId"
     FROM feed_advertisers WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return row;
}

/** Maps the advertiser to the store; its waiting rows flow on the source's next run. */
export async function mapFeedAdvertiser(
  manager: EntityManager,
  id: number,
  merchantId: number,
): Promise<void> {
  await manager.query(
    'UPDATE feed_advertisers SET merchant_id = $2, rows_waiting = 0, mapped_at = now() WHERE id = $1',
    [id, merchantId],
  );
}

/** Every advertiser mapped to one store now mapped to another (a store claimed by its merchant). */
export async function moveFeedAdvertisers(
  manager: EntityManager,
  from: number,
  to: number,
): Promise<number[]> {
  // An UPDATE answers [rows, count] through TypeORM.
  const [rows]: [Array<{ id: number }>, number] = await manager.query(
    'UPDATE feed_advertisers SET merchant_id = $2, mapped_at = now() WHERE merchant_id = $1 RETURNING id',
    [from, to],
  );
  return rows.map((row) => row.id);
}

// --- Categories -------------------------------------------------------------------------------

/**
 * Our categories for a row's network category names. A name the source never used before is
 * noted for the admin's table, mapped by default to our category of the same name (whatever the
 * case) or to none; a name noted before keeps what the admin chose. Names already noted cost no
 * write. Distinct ids, in the order of the names.
 */
export async function categoryIdsFor(
  manager: Reader,
  sourceId: number,
  names: readonly string[],
): Promise<number[]> {
  const wanted = await noteFeedCategories(manager, sourceId, names);
  if (wanted.length === 0) return [];
  const rows: Array<{ category_id: number }> = await manager.query(
    `SELECT f.category_id FROM unnest($2::text[]) WITH ORDINALITY AS n(name, at)
     JOIN feed_categories f ON f.source_id = $1 AND lower(f.name) = lower(n.name)
     WHERE f.category_id IS NOT NULL ORDER BY n.at`,
    [sourceId, wanted],
  );
  return [...new Set(rows.map((row) => row.category_id))];
}

/**
 * Notes the network category names a source has not used before (mapped to our category of the
 * same name, or to none); answers the names, trimmed and once each.
 */
async function noteFeedCategories(manager: Reader, sourceId: number, names: readonly string[]) {
  const wanted = [...new Set(names.map((name) => name.trim().slice(0, 200)).filter(Boolean))];
  if (wanted.length === 0) return wanted;
  const noted: Array<{ name: string }> = await manager.query(
    `SELECT n.name FROM unnest($2::text[]) AS n(name)
     WHERE EXISTS (SELECT 1 FROM feed_categories f WHERE f.source_id = $1 AND lower(f.name) = lower(n.name))`,
    [sourceId, wanted],
  );
  // Names noted before cost no write, nor a question to coupons.
  const known = new Set(noted.map((row) => row.name));
  const fresh = wanted.filter((name) => !known.has(name));
  if (fresh.length === 0) return wanted;
  const ours = await categoriesNamed(manager, fresh);
  await manager.query(
    `INSERT INTO feed_categories (source_id, name, category_id)
     SELECT $1, n.name, n.category_id FROM unnest($2::text[], $3::int[]) AS n(name, category_id)
     WHERE NOT EXISTS (SELECT 1 FROM feed_categories f WHERE f.source_id = $1 AND lower(f.name) = lower(n.name))
     ON CONFLICT DO NOTHING`,
    [sourceId, fresh, fresh.map((name) => ours.get(name) ?? null)],
  );
  return wanted;
}

/**
 * A source's network categories of these names, noted first where they are new (as a run notes
 * them), so an admin, or the demo, can map them before the first run.
 */
export async function feedCategoriesNamed(
  manager: Reader,
  sourceId: number,
  names: readonly string[],
): Promise<Array<{ id: number; name: string; categoryId: number | null }>> {
  const wanted = await noteFeedCategories(manager, sourceId, names);
  return manager.query(
    `SELECT f.id, f.name, f.category_id AS "categoryId" FROM feed_categories f
     WHERE f.source_id = $1 AND lower(f.name) = ANY(SELECT lower(n) FROM unnest($2::text[]) AS n)
     ORDER BY f.id`,
    [sourceId, wanted],
  );
}

export const FEED_CATEGORY_SORTS = ['id', 'name', 'sourceId', 'categoryId'] as const;
const CATEGORY_SORT_COLUMNS: Record<(typeof FEED_CATEGORY_SORTS)[number], string> = {
  id: 'f.id',
  name: 'lower(f.name)',
  sourceId: 'f.source_id',
  categoryId: 'f.category_id',
};

export interface FeedCategoryAnswer {
  id: number;
  sourceId: number;
  sourceName: string;
  name: string;
  categoryId: number | null;
  categoryName: string | null;
  firstSeenAt: string;
  updatedAt: string;
}

const CATEGORY_COLUMNS = `
  f.id, f.source_id AS "sourceId", src.name AS "sourceName", f.name, f.category_id AS "categoryId",
  f.first_seen_at AS "firstSeenAt", f.updated_at AS "updatedAt"`;
const CATEGORY_FROM = 'feed_categories f JOIN feed_sources src ON src.id = f.source_id';

/** The network categories with the names of ours they are mapped to (asked of coupons once for all). */
async function withCategoryNames(
  reader: Reader,
  rows: Array<Omit<FeedCategoryAnswer, 'categoryName'>>,
): Promise<FeedCategoryAnswer[]> {
  const names = await categoryNamesOf(reader, [
    ...new Set(rows.flatMap((row) => (row.categoryId === null ? [] : [row.categoryId]))),
  ]);
  return rows.map(({ firstSeenAt, updatedAt, ...category }) => ({
    ...category,
    categoryName: category.categoryId === null ? null : (names.get(category.categoryId) ?? null),
    firstSeenAt,
    updatedAt,
  }));
}

/** One page of network categories; filters: `sourceId`, `mapped`, `q` (in the name). */
export async function feedCategoryPage(
  reader: Reader,
  page: ListRequest<(typeof FEED_CATEGORY_SORTS)[number]>,
  filter: { sourceId?: number; mapped?: boolean; q?: string },
): Promise<{ rows: FeedCategoryAnswer[]; total: number }> {
  const where = `($1::int IS NULL OR f.source_id = $1)
    AND ($2::boolean IS NULL OR (f.category_id IS NOT NULL) = $2)
    AND ($3::text IS NULL OR f.name ILIKE '%' || $3 || '%')`;
  const parameters = [filter.sourceId ?? null, filter.mapped ?? null, filter.q ?? null];
  const [{ total }] = await reader.query(
    `SELECT count(*)::int AS total FROM feed_categories f WHERE ${where}`,
    parameters,
  );
  const rows = await reader.query(
    `SELECT ${CATEGORY_COLUMNS} FROM ${CATEGORY_FROM} WHERE ${where}
     ORDER BY ${CATEGORY_SORT_COLUMNS[page.sortField]} ${page.order} NULLS LAST, f.id ${page.order}
     OFFSET $4 LIMIT $5`,
    [...parameters, page.offset, page.limit],
  );
  return { rows: await withCategoryNames(reader, rows), total };
}

export async function feedCategory(reader: Reader, id: number): Promise<FeedCategoryAnswer | undefined> {
  const rows = await reader.query(`SELECT ${CATEGORY_COLUMNS} FROM ${CATEGORY_FROM} WHERE f.id = $1`, [id]);
  const [category] = await withCategoryNames(reader, rows);
  return category;
}

/** Sets our category of a network category (null: none); false when there is no such row. */
export async function setFeedCategory(
  manager: EntityManager,
  id: number,
  categoryId: number | null,
): Promise<{ sourceId: number; name: string; previous: number | null } | undefined> {
  // An UPDATE answers [rows, count] through TypeORM.
  const [[row]] = await manager.query(
    `UPDATE feed_categories f SET category_id = $2, updated_at = now()
     FROM (SELECT id, category_id FROM feed_categories WHERE id = $1 FOR UPDATE) old
     WHERE f.id = old.id
     RETURNING f.source_id AS "sourceId", f.name, old.category_id AS previous`,
    [id, categoryId],
  );
  return row;
}
