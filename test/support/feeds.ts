import type { DataSource } from 'typeorm';

/** Maps a source's advertiser to a store, as an admin's mapping would. */
export async function mapAdvertiser(
  dataSource: DataSource,
  sourceId: number,
  advertiserId: string,
  merchantId: number,
): Promise<void> {
  await dataSource.query(
    `INSERT INTO feed_advertisers (source_id, advertiser_id, merchant_id) VALUES ($1, $2, $3)
     ON CONFLICT (source_id, advertiser_id) DO UPDATE SET merchant_id = EXCLUDED.merchant_id`,
    [sourceId, advertiserId, merchantId],
  );
}
