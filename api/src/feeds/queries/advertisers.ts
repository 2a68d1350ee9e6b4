import type { EntityManager } from 'typeorm';

/**
 * SQL of `feed_advertisers` (see migration FeedAdvertisers1764915000000): which store of ours a
 * source's advertiser is, and the advertisers waiting for an admin's mapping.
 */

/** The store (merchant id) the source's advertiser is mapped to, or null while it is not. */
export async function advertiserStore(
  manager: EntityManager,
  sourceId: number,
  advertiserId: string,
): Promise<number | null> {
  const [row] = await manager.query(
    'SELECT merchant_id AS "merchantId" FROM feed_advertisers WHERE source_id = $1 AND advertiser_id = $2',
    [sourceId, advertiserId],
  );
  return row?.merchantId ?? null;
}

/** Notes an advertiser not mapped yet, with the rows of the latest run waiting for it. */
export async function noteUnmappedAdvertiser(
  manager: EntityManager,
  sourceId: number,
  advertiser: { id: string; name: string | null; siteUrl: string | null },
  rowsWaiting: number,
): Promise<void> {
  await manager.query(
    `INSERT INTO feed_advertisers (source_id, advertiser_id, name, site_url, rows_waiting)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (source_id, advertiser_id) DO UPDATE SET
       name = coalesce(EXCLUDED.name, feed_advertisers.name),
       site_url = coalesce(EXCLUDED.site_url, feed_advertisers.site_url),
       rows_waiting = EXCLUDED.rows_waiting, last_seen_at = now()`,
    [sourceId, advertiser.id, advertiser.name, advertiser.siteUrl, rowsWaiting],
  );
}

/** Our categories for a network's category names: none until categories are mapped. */
export async function categoryIdsFor(
  _manager: EntityManager,
  _sourceId: number,
  _names: readonly string[],
): Promise<number[]> {
  return [];
}
