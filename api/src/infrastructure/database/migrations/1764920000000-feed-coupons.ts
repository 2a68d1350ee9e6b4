import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The import of feed runs. `feed_coupons` is a feed coupon's identity: (source, the row's own id)
 * to the coupon it became, with a hash of what the row said (an unchanged row changes nothing),
 * its tracking link, and whether the feed ended it. `feed_run_rows` holds a run's rows as read,
 * one per row id and language, until the run ends: the run reads the feed once (the fetch is the
 * slow, failing part), then applies the rows by group (`group_key`: one campaign's code, or a
 * deal's row id), so a coupon's rows in other languages merge as its translations wherever they
 * stand in the feed, each outcome written in the transaction that applied it, so
 * a workers process killed mid-run resumes where it stopped and applies nothing twice.
 * `feed_runs.read_at` says the run's rows are all staged; `waiting` counts rows of advertisers not
 * mapped to a store yet.
 */
export class FeedCoupons1764920000000 implements MigrationInterface {
  name = 'FeedCoupons1764920000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE feed_coupons (
        source_id integer NOT NULL REFERENCES feed_sources (id),
        row_id text NOT NULL,
        coupon_id integer NOT NULL UNIQUE REFERENCES coupons (id),
        content_hash text NOT NULL,
        tracking_url text,
        ended boolean NOT NULL DEFAULT false,
        last_run_id integer REFERENCES feed_runs (id),
        PRIMARY KEY (source_id, row_id)
      )`);
    await queryRunner.query(`
      ALTER TABLE feed_runs
        ADD COLUMN read_at timestamptz,
        ADD COLUMN waiting integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`
      CREATE TABLE feed_run_rows (
        run_id integer NOT NULL REFERENCES feed_runs (id) ON DELETE CASCADE,
        row_id text NOT NULL,
        language text NOT NULL,
        group_key text NOT NULL,
        line integer NOT NULL,
        row jsonb NOT NULL,
        outcome text CHECK (outcome IN ('added', 'updated', 'unchanged', 'ended', 'duplicate', 'waiting', 'rejected')),
        PRIMARY KEY (run_id, row_id, language)
      )`);
    await queryRunner.query(
      'CREATE INDEX feed_run_rows_pending ON feed_run_rows (run_id, group_key COLLATE "C") WHERE outcome IS NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE feed_run_rows');
    await queryRunner.query('ALTER TABLE feed_runs DROP COLUMN read_at, DROP COLUMN waiting');
    await queryRunner.query('DROP TABLE feed_coupons');
  }
}
