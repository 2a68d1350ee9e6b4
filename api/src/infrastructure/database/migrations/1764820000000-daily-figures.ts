import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboards' daily aggregates, kept by the `daily-figures` projection from the event log.
 * One row per figure, merchant, coupon and India's day; `merchant_id`/`coupon_id` are 0 where the
 * figure is not a merchant's (sign-ups) or is a merchant's total over its coupons. A merchant's
 * per-coupon rows and its total row are both kept, so no request sums more than one row per day.
 */
export class DailyFigures1764820000000 implements MigrationInterface {
  name = 'DailyFigures1764820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE daily_figures (
        figure text NOT NULL,
        merchant_id integer NOT NULL DEFAULT 0,
        coupon_id integer NOT NULL DEFAULT 0,
        day date NOT NULL,
        count bigint NOT NULL DEFAULT 0,
        amount_paise bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (figure, merchant_id, coupon_id, day)
      )`);
    // The admin dashboard: every merchant's total row (and the rows of no merchant) of a period.
    await queryRunner.query(
      'CREATE INDEX daily_figures_totals ON daily_figures (figure, day) WHERE coupon_id = 0',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE daily_figures');
  }
}
