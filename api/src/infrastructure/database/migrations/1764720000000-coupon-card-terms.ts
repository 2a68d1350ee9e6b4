import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A coupon card shows the offer's terms behind "Details": the listing read model keeps them. */
export class CouponCardTerms1764720000000 implements MigrationInterface {
  name = 'CouponCardTerms1764720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE coupon_listings ADD COLUMN terms text NOT NULL DEFAULT ''");
    await queryRunner.query(
      'UPDATE coupon_listings l SET terms = c.terms_and_conditions FROM coupons c WHERE c.id = l.coupon_id',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE coupon_listings DROP COLUMN terms');
  }
}
