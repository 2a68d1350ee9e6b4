import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A coupon ends at its expiry date without its row being changed: a live coupon past its
 * `expiry_date` is expired to every reader (see coupons/queries/coupon-status.ts), and the sweep
 * only announces it, once, in expiry order. `coupon_expiry_sweep` is the one row that says how far
 * the announcements have come (the last announced coupon's expiry date and id); approvals and
 * withdrawals hold it FOR SHARE so that the sweep never passes a coupon another transaction is
 * still changing. The live coupons' expiry index gains the id (the sweep's order) and the merchant
 * (its event's payload), so the sweep reads the index alone.
 */
export class ExpiryByDate1764830000000 implements MigrationInterface {
  name = 'ExpiryByDate1764830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE coupon_expiry_sweep (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        through_expiry timestamptz NOT NULL DEFAULT '-infinity',
        through_id integer NOT NULL DEFAULT 0
      )`);
    await queryRunner.query('INSERT INTO coupon_expiry_sweep DEFAULT VALUES');
    await queryRunner.query('DROP INDEX coupons_live_expiry');
    await queryRunner.query(
      "CREATE INDEX coupons_live_expiry ON coupons (expiry_date, id) INCLUDE (merchant_id) WHERE status = 'live'",
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Coupons announced as expired become expired rows again, as the earlier sweep left them.
    await queryRunner.query(`
      UPDATE coupons c SET status = 'expired', ended_at = c.expiry_date, updated_at = now()
      FROM coupon_expiry_sweep w
      WHERE c.status = 'live' AND (c.expiry_date, c.id) <= (w.through_expiry, w.through_id)`);
    await queryRunner.query('DROP TABLE coupon_expiry_sweep');
    await queryRunner.query('DROP INDEX coupons_live_expiry');
    await queryRunner.query(
      "CREATE INDEX coupons_live_expiry ON coupons (expiry_date) WHERE status = 'live'",
    );
  }
}
