import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The first answer to each command sent with an `Idempotency-Key`, per caller, replayed to a retry
 * with the same key for a day. `status` is null while the first request is being processed.
 */
export class IdempotencyKeys1764610000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764610000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE idempotency_keys (
        caller text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        status int,
        headers jsonb,
        body text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        PRIMARY KEY (caller, key)
      )`);
    // The hourly purge of keys past their day.
    await queryRunner.query('CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE idempotency_keys');
  }
}
