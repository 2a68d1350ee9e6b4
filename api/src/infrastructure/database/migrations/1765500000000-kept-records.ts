import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the records an erasure kept (earnings, payouts, claims, the pseudonymous account) were
 * removed at the end of their retention period; the sweep reads the erased requests still without it.
 */
export class KeptRecords1765500000000 implements MigrationInterface {
  name = 'KeptRecords1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE deletion_requests ADD COLUMN records_removed_at timestamptz');
    await queryRunner.query(`
      CREATE INDEX deletion_requests_kept ON deletion_requests (erased_at, id)
      WHERE state = 'erased' AND records_removed_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX deletion_requests_kept');
    await queryRunner.query('ALTER TABLE deletion_requests DROP COLUMN records_removed_at');
  }
}
