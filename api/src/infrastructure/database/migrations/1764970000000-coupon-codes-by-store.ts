import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A store's coupons by code, without case: how a coupon is found to repeat another of its store
 * (an import's lot of a thousand asks it for each of its coupons, a merchant's coupon for its
 * own). Without it each question read every coupon of the store, which grows with the catalogue.
 */
export class CouponCodesByStore1764970000000 implements MigrationInterface {
  name = 'CouponCodesByStore1764970000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX coupons_merchant_code ON coupons (merchant_id, lower(coupon_code)) WHERE coupon_code IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX coupons_merchant_code');
  }
}
