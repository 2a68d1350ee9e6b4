import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Click-outs to merchants' sites and the merchant's tracking settings; the click id on earnings.
 *
 * `clicks` is partitioned by month of `clicked_at`, so a sale day's inserts go to one small
 * table and its indexes, and old months can be detached or dropped whole. Partitions are named
 * `clicks_YYYY_MM` (months in UTC); `ensure_click_partition` makes the month of a given time and
 * is called here for this month and the next, and by the workers' scheduled job ahead of time.
 * A click of a month without a partition lands in `clicks_default`, never fails; making that
 * month later moves such rows into the new partition.
 */
export class Clicks1764800000000 implements MigrationInterface {
  name = 'Clicks1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE merchants
        ADD COLUMN sub_id_param text NOT NULL DEFAULT 'subid' CHECK (sub_id_param ~ '^[A-Za-z0-9_-]{1,32}$'),
        ADD COLUMN cookie_window_days integer NOT NULL DEFAULT 30 CHECK (cookie_window_days BETWEEN 1 AND 90)`);

    // No foreign keys: every click would take a key-share lock on its coupon's and merchant's
    // rows, and thousands of clicks on one coupon in a sale would pile those locks on one row.
    // The command writes ids it has just read, and coupons, merchants and users are never deleted.
    // The primary key includes the partition key (PostgreSQL requires it); the click id carries
    // its time, so a lookup names both and reads one partition's index.
    await queryRunner.query(`
      CREATE TABLE clicks (
        id text NOT NULL,
        coupon_id integer NOT NULL,
        merchant_id integer NOT NULL,
        user_id integer,
        clicked_at timestamptz NOT NULL,
        PRIMARY KEY (id, clicked_at)
      ) PARTITION BY RANGE (clicked_at)`);
    await queryRunner.query('CREATE TABLE clicks_default PARTITION OF clicks DEFAULT');

    await queryRunner.query(`
      CREATE FUNCTION ensure_click_partition(moment timestamptz) RETURNS text LANGUAGE plpgsql AS $$
      DECLARE
        month_start timestamptz := date_trunc('month', moment AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
        month_end timestamptz := (date_trunc('month', moment AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
        partition_name text := 'clicks_' || to_char(moment AT TIME ZONE 'UTC', 'YYYY_MM');
      BEGIN
        IF to_regclass(partition_name) IS NOT NULL THEN
          RETURN NULL;
        END IF;
        -- Two workers making the same month: the second finds it made.
        PERFORM pg_advisory_xact_lock(hashtext('ensure_click_partition'));
        IF to_regclass(partition_name) IS NOT NULL THEN
          RETURN NULL;
        END IF;
        -- Inserts routed to the default partition wait until the month is attached, so none
        -- slips into it between the move below and the attach's check of it.
        LOCK TABLE clicks_default IN SHARE ROW EXCLUSIVE MODE;
        EXECUTE format('CREATE TABLE %I (LIKE clicks INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', partition_name);
        -- Clicks of this month that arrived before it existed are in the default partition,
        -- which would refuse the new bounds while it holds them.
        EXECUTE format(
          'WITH moved AS (DELETE FROM clicks_default WHERE clicked_at >= %L AND clicked_at < %L RETURNING *)
           INSERT INTO %I SELECT * FROM moved',
          month_start, month_end, partition_name);
        EXECUTE format('ALTER TABLE clicks ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
          partition_name, month_start, month_end);
        RETURN partition_name;
      END
      $$`);
    await queryRunner.query(
      "SELECT ensure_click_partition(now()), ensure_click_partition(now() + interval '1 month')",
    );

    // The click a purchase was attributed to (none for purchases reported by referral code).
    await queryRunner.query('ALTER TABLE earnings ADD COLUMN click_id text');
    await queryRunner.query('CREATE INDEX earnings_click ON earnings (click_id) WHERE click_id IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE earnings DROP COLUMN click_id');
    await queryRunner.query('DROP TABLE clicks');
    await queryRunner.query('DROP FUNCTION ensure_click_partition(timestamptz)');
    await queryRunner.query('ALTER TABLE merchants DROP COLUMN sub_id_param, DROP COLUMN cookie_window_days');
  }
}
