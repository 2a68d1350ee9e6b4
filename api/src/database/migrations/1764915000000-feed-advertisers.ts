import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A network's advertisers as feeds name them, per source, and the store of ours each is mapped to
 * (null until an admin maps it). The import notes unmapped ones with the rows waiting for them.
 */
export class FeedAdvertisers1764915000000 implements MigrationInterface {
  name = 'FeedAdvertisers1764915000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE feed_advertisers (
        source_id integer NOT NULL REFERENCES feed_sources (id),
        advertiser_id text NOT NULL,
        name text,
        site_url text,
        merchant_id integer REFERENCES merchants (id),
        rows_waiting integer NOT NULL DEFAULT 0,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (source_id, advertiser_id)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE feed_advertisers');
  }
}
