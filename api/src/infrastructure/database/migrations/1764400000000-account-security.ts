import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sessions: a bearer token only for API clients that ask for one (a browser's sign-in has none),
 * the time of last use (an idle session ends), and the browser that started it (so a person can
 * tell their sessions apart). Merchants: a store an admin hid. Earnings: when the purchase was
 * made, which decides whether its coupon was live.
 */
export class AccountSecurity1764400000000 implements MigrationInterface {
  name = 'AccountSecurity1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE sessions ALTER COLUMN bearer_token_hash DROP NOT NULL');
    await queryRunner.query(
      'ALTER TABLE sessions ADD COLUMN last_used_at timestamptz NOT NULL DEFAULT now()',
    );
    await queryRunner.query('ALTER TABLE sessions ADD COLUMN user_agent text');
    await queryRunner.query('ALTER TABLE merchants ADD COLUMN store_hidden boolean NOT NULL DEFAULT false');
    await queryRunner.query('ALTER TABLE earnings ADD COLUMN purchased_at timestamptz');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE earnings DROP COLUMN purchased_at');
    await queryRunner.query('ALTER TABLE merchants DROP COLUMN store_hidden');
    await queryRunner.query('ALTER TABLE sessions DROP COLUMN user_agent');
    await queryRunner.query('ALTER TABLE sessions DROP COLUMN last_used_at');
    await queryRunner.query('DELETE FROM sessions WHERE bearer_token_hash IS NULL');
    await queryRunner.query('ALTER TABLE sessions ALTER COLUMN bearer_token_hash SET NOT NULL');
  }
}
