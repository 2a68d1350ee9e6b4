import type { DataSource, EntityManager } from 'typeorm';

/** Feed records written in one statement, for the feed benchmark. */

type Reader = Pick<DataSource | EntityManager, 'query'>;

/**
 * Maps the source's advertisers to their stores, as an admin's mapping of each would (mapped now),
 * in the order given.
 */
export async function mapFeedAdvertisersInBulk(
  manager: Reader,
  sourceId: number,
  advertisers: ReadonlyArray<{ advertiserId: string; name: string; merchantId: number }>,
): Promise<void> {
  await manager.query(
    `INSERT INTO feed_advertisers (source_id, advertiser_id, name, merchant_id, mapped_at)
     SELECT $1, advertiser_id, name, merchant_id, now()
     FROM unnest($2::text[], $3::text[], $4::int[]) WITH ORDINALITY AS a(advertiser_id, name, merchant_id, n)
     ORDER BY n`,
    [
      sourceId,
      advertisers.map((advertiser) => advertiser.advertiserId),
      advertisers.map((advertiser) => advertiser.name),
      advertisers.map((advertiser) => advertiser.merchantId),
    ],
  );
}
