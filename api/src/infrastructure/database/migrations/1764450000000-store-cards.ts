import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Coupon cards name their store and link to its page: the listing read model keeps the store's
 * address and logo beside each coupon, and its name as the store page shows it (the store's own
 * name, else its brand name, else its registered name; the logo of its active store).
 */
export class StoreCards1764450000000 implements MigrationInterface {
  name = 'StoreCards1764450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE coupon_listings ADD COLUMN merchant_slug text, ADD COLUMN merchant_logo_id uuid',
    );
    await queryRunner.query(`
      UPDATE coupon_listings l SET merchant_slug = x.slug, merchant_logo_id = x.logo, merchant_name = x.name
      FROM (
        SELECT m.id, m.slug, s.merchant_logo_id AS logo,
          coalesce(nullif(s.store_name, ''), nullif(m.brand_name, ''), m.merchant_name) AS name
        FROM merchants m LEFT JOIN merchant_stores s ON s.merchant_id = m.id AND s.is_active
      ) x
      WHERE x.id = l.merchant_id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE coupon_listings DROP COLUMN merchant_slug, DROP COLUMN merchant_logo_id',
    );
  }
}
