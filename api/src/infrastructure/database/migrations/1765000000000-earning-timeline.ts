import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each earning's timeline and the mails about it. A cancelled earning keeps the reason the
 * network's postback gave (`cancel_reason`, null when it gave none or an admin cancelled it).
 *
 * `earning_notices` holds the mails owed to shoppers: one row per earning and step (tracked,
 * confirmed), noted when the step happens and due after a short wait; the daily digest of a
 * shopper lists every due row and marks it mailed in the transaction that records the mail.
 */
export class EarningTimeline1765000000000 implements MigrationInterface {
  name = 'EarningTimeline1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE earnings ADD COLUMN cancel_reason text');
    await queryRunner.query(`
      CREATE TABLE earning_notices (
        earning_id integer NOT NULL REFERENCES earnings (id) ON DELETE CASCADE,
        step text NOT NULL CHECK (step IN ('tracked', 'confirmed')),
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        noted_at timestamptz NOT NULL DEFAULT now(),
        due_at timestamptz NOT NULL,
        mailed_at timestamptz,
        PRIMARY KEY (earning_id, step)
      )`);
    // The sweep reads the shoppers with notices waiting, oldest due first.
    await queryRunner.query(
      'CREATE INDEX earning_notices_waiting ON earning_notices (user_id, due_at) WHERE mailed_at IS NULL',
    );
    await queryRunner.query(
      'CREATE INDEX earning_notices_mailed ON earning_notices (mailed_at) WHERE mailed_at IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE earning_notices');
    await queryRunner.query('ALTER TABLE earnings DROP COLUMN cancel_reason');
  }
}
