import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shoppers following stores, and the alerts of their new offers: one row per follower and coupon
 * that went live, mailed at most once a day per follower and store (the mail's idempotency key
 * names the day), so the offers that come later that day wait for the next day's mail.
 */
export class StoreFollows1764630000000 implements MigrationInterface {
  name = 'StoreFollows1764630000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE store_follows (
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        merchant_id integer NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
        followed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, merchant_id)
      )`);
    // The followers of a store, read when one of its coupons goes live.
    await queryRunner.query('CREATE INDEX store_follows_merchant ON store_follows (merchant_id)');
    await queryRunner.query(`
      CREATE TABLE store_alerts (
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        coupon_id integer NOT NULL REFERENCES coupons (id) ON DELETE CASCADE,
        merchant_id integer NOT NULL REFERENCES merchants (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        mailed_at timestamptz,
        PRIMARY KEY (user_id, coupon_id)
      )`);
    await queryRunner.query(
      'CREATE INDEX store_alerts_waiting ON store_alerts (user_id, merchant_id) WHERE mailed_at IS NULL',
    );
    await queryRunner.query(
      'CREATE INDEX store_alerts_mailed ON store_alerts (mailed_at) WHERE mailed_at IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE store_alerts');
    await queryRunner.query('DROP TABLE store_follows');
  }
}
