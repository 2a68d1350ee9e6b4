import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every public coupon order ends with the coupon id, and each has an index in exactly that order
 * (`ORDER` in coupons/queries/listings.ts), so a page is read from the index and is the same page
 * every time. Popularity also lives with the click counts, so a click that is applied before its
 * coupon's listing row exists is not lost.
 */
export class TotalOrders1764300000000 implements MigrationInterface {
  name = 'TotalOrders1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const indexes = {
      coupon_listings_popular: '(popularity DESC NULLS LAST, approved_at DESC, coupon_id DESC)',
      coupon_listings_newest: '(approved_at DESC, coupon_id DESC)',
      coupon_listings_az: '(lower(title), coupon_id)',
      coupon_listings_best: '(percentage DESC, discount_value DESC, coupon_id)',
      coupon_listings_expiring: '(expires_at, coupon_id)',
      coupon_listings_top: '(paid_slot DESC, popularity DESC NULLS LAST, approved_at DESC, coupon_id DESC)',
    };
    for (const [name, columns] of Object.entries(indexes)) {
      await queryRunner.query(`DROP INDEX IF EXISTS ${name}`);
      await queryRunner.query(`CREATE INDEX ${name} ON coupon_listings ${columns}`);
    }
    await queryRunner.query('ALTER TABLE coupon_clicks ADD COLUMN popularity double precision');
    await queryRunner.query(
      `UPDATE coupon_clicks k SET popularity = l.popularity FROM coupon_listings l WHERE l.coupon_id = k.coupon_id`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE coupon_clicks DROP COLUMN popularity');
    await queryRunner.query('DROP INDEX coupon_listings_top');
  }
}
