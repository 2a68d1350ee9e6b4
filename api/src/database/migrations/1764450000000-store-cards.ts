import type { MigrationInterface, QueryRunner } from 'typeorm';
import { STORE_JOIN, STORE_LOGO_SQL, STORE_NAME_SQL } from '../../storefront/queries/store-identity.js';

/**
 * Coupon cards name their store and link to its page: the listing read model keeps the store's
 * address and logo beside each coupon, and its name as the store page shows it.
 */
export class StoreCards1764450000000 implements MigrationInterface {
  name = 'StoreCards1764450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE coupon_listings ADD COLUMN merchant_slug text, ADD COLUMN merchant_logo_id uuid',
    );
    await queryRunner.query(`
      UPDATE coupon_listings l SET merchant_slug = x.slug, merchant_logo_id = x.logo, merchant_name = x.name
      FROM (SELECT m.id, m.slug, ${STORE_LOGO_SQL} AS logo, ${STORE_NAME_SQL} AS name FROM merchants m ${STORE_JOIN}) x
      WHERE x.id = l.merchant_id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE coupon_listings DROP COLUMN merchant_slug, DROP COLUMN merchant_logo_id',
    );
  }
}
