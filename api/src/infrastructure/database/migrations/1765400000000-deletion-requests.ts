import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Requests to delete an account: asked, confirmed through the mailed link (then scheduled for
 * erasure after the grace period), cancelled or erased. Only digests of the links' tokens are
 * kept. The row names the account by id only, so it outlives the erasure it records.
 */
export class DeletionRequests1765400000000 implements MigrationInterface {
  name = 'DeletionRequests1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE deletion_requests (
        id bigserial PRIMARY KEY,
        person_kind text NOT NULL CHECK (person_kind IN ('shopper', 'merchant')),
        person_id integer NOT NULL,
        state text NOT NULL DEFAULT 'awaiting_confirmation'
          CHECK (state IN ('awaiting_confirmation', 'scheduled', 'cancelled', 'erased')),
        confirm_token_digest text NOT NULL,
        cancel_token_digest text NOT NULL,
        gives_up_unpaid_paise bigint NOT NULL DEFAULT 0 CHECK (gives_up_unpaid_paise >= 0),
        requested_at timestamptz NOT NULL DEFAULT now(),
        confirm_before timestamptz NOT NULL,
        confirmed_at timestamptz,
        erase_after timestamptz,
        cancelled_at timestamptz,
        erased_at timestamptz,
        CHECK ((state = 'scheduled') <= (erase_after IS NOT NULL))
      )`);
    // One open request per account at a time.
    await queryRunner.query(`
      CREATE UNIQUE INDEX deletion_requests_open ON deletion_requests (person_kind, person_id)
      WHERE state IN ('awaiting_confirmation', 'scheduled')`);
    // The erasure job reads the scheduled requests that are due.
    await queryRunner.query(`
      CREATE INDEX deletion_requests_due ON deletion_requests (erase_after) WHERE state = 'scheduled'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE deletion_requests');
  }
}
