import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Coupons that do not come from a merchant's form (feeds of affiliate networks) may be deals
 * without a code, open-ended (no expiry date: live until ended), without a percentage or a
 * discount value, and exclusive; and any coupon may have its title, description and terms in
 * Hindi and Telugu beside English (`coupon_texts`). The value CHECKs stay for values given.
 *
 * The listing read model keeps whether a coupon has a code (never the code), the exclusive flag
 * and the other languages' texts as a document, and writes an open-ended coupon's end as
 * 'infinity', so every `expires_at > now()` reader and the "expiring" order hold as they are.
 * The "best" order puts coupons without a percentage or value last (its index follows), and a
 * slot seat of an open-ended coupon is held until 'infinity' (until it ends otherwise).
 */
export class DealsAndCouponTexts1764910000000 implements MigrationInterface {
  name = 'DealsAndCouponTexts1764910000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE coupons
        ALTER COLUMN coupon_code DROP NOT NULL,
        ALTER COLUMN percentage DROP NOT NULL,
        ALTER COLUMN discount_value DROP NOT NULL,
        ALTER COLUMN expiry_date DROP NOT NULL,
        ADD COLUMN exclusive boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`
      CREATE TABLE coupon_texts (
        coupon_id integer NOT NULL REFERENCES coupons (id) ON DELETE CASCADE,
        language text NOT NULL CHECK (language IN ('hi', 'te')),
        title text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 50),
        description text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 200),
        terms text,
        PRIMARY KEY (coupon_id, language)
      )`);
    await queryRunner.query(`
      ALTER TABLE coupon_listings
        ALTER COLUMN percentage DROP NOT NULL,
        ALTER COLUMN discount_value DROP NOT NULL,
        ADD COLUMN has_code boolean NOT NULL DEFAULT true,
        ADD COLUMN exclusive boolean NOT NULL DEFAULT false,
        ADD COLUMN texts jsonb NOT NULL DEFAULT '{}'`);
    await queryRunner.query('DROP INDEX coupon_listings_best');
    await queryRunner.query(
      'CREATE INDEX coupon_listings_best ON coupon_listings (percentage DESC NULLS LAST, discount_value DESC NULLS LAST, coupon_id)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX coupon_listings_best');
    await queryRunner.query(
      'CREATE INDEX coupon_listings_best ON coupon_listings (percentage DESC, discount_value DESC, coupon_id)',
    );
    // Deals, open-ended coupons and those without values cannot be kept by the older model.
    await queryRunner.query(
      `DELETE FROM coupon_listings WHERE NOT has_code OR percentage IS NULL OR discount_value IS NULL
         OR expires_at = 'infinity'`,
    );
    await queryRunner.query(`
      ALTER TABLE coupon_listings
        ALTER COLUMN percentage SET NOT NULL,
        ALTER COLUMN discount_value SET NOT NULL,
        DROP COLUMN has_code, DROP COLUMN exclusive, DROP COLUMN texts`);
    await queryRunner.query('DROP TABLE coupon_texts');
    await queryRunner.query(`
      ALTER TABLE coupons
        DROP COLUMN exclusive,
        ALTER COLUMN coupon_code SET NOT NULL,
        ALTER COLUMN percentage SET NOT NULL,
        ALTER COLUMN discount_value SET NOT NULL,
        ALTER COLUMN expiry_date SET NOT NULL`);
  }
}
