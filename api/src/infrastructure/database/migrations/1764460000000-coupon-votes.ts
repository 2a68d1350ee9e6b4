import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shoppers' "did this code work?" votes, and what the cards show of them and of today's reveals,
 * kept in the listing read model: votes, the success rate's numerator, when a vote last said it
 * worked, and reveals of the current day in India.
 */
export class CouponVotes1764460000000 implements MigrationInterface {
  name = 'CouponVotes1764460000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE coupon_votes (
        coupon_id integer NOT NULL REFERENCES coupons (id) ON DELETE CASCADE,
        visitor text NOT NULL,
        day date NOT NULL,
        worked boolean NOT NULL,
        voted_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (coupon_id, visitor, day)
      )`);
    await queryRunner.query(
      'ALTER TABLE coupon_clicks ADD COLUMN today date, ADD COLUMN clicks_today integer NOT NULL DEFAULT 0',
    );
    await queryRunner.query(`
      ALTER TABLE coupon_listings
        ADD COLUMN votes integer NOT NULL DEFAULT 0,
        ADD COLUMN worked_votes integer NOT NULL DEFAULT 0,
        ADD COLUMN last_worked_at timestamptz,
        ADD COLUMN verified_at timestamptz,
        ADD COLUMN today date,
        ADD COLUMN clicks_today integer NOT NULL DEFAULT 0`);
    await queryRunner.query('UPDATE coupon_listings SET verified_at = approved_at');
    await queryRunner.query('ALTER TABLE coupon_listings ALTER COLUMN verified_at SET NOT NULL');
    await queryRunner.query(
      'CREATE INDEX coupon_listings_verified ON coupon_listings (verified_at DESC, coupon_id DESC)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX coupon_listings_verified');
    await queryRunner.query(
      'ALTER TABLE coupon_listings DROP COLUMN votes, DROP COLUMN worked_votes, DROP COLUMN last_worked_at, DROP COLUMN verified_at, DROP COLUMN today, DROP COLUMN clicks_today',
    );
    await queryRunner.query('ALTER TABLE coupon_clicks DROP COLUMN today, DROP COLUMN clicks_today');
    await queryRunner.query('DROP TABLE coupon_votes');
  }
}
