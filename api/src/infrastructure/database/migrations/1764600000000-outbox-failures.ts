import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Readiness counts failed events on every probe; the outbox is kept forever as the event log, so
 * the count reads a partial index of the failed ones (usually none) rather than the whole table.
 */
export class OutboxFailures1764600000000 implements MigrationInterface {
  name = 'OutboxFailures1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX outbox_failed ON outbox (failed_at) WHERE failed_at IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX outbox_failed');
  }
}
