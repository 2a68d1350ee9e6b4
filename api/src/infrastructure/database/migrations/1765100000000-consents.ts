import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The notice's version these consents were kept under: what the accounts had before the notice. */
const BEFORE_NOTICE = 'before-notice';

/**
 * Consents as records: one row per consent given or withdrawn, with the notice's version and the
 * time; the history stays, and a person's current consent to a purpose is their latest row for it.
 *
 * Accounts that exist now keep what they receive today (docs/decisions.md § Privacy): shoppers who
 * follow a store keep store alerts; shoppers whose address is a confirmed newsletter subscriber keep
 * the newsletter and the offers it features. Nobody else is given anything.
 */
export class Consents1765100000000 implements MigrationInterface {
  name = 'Consents1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE consents (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        holder_kind text NOT NULL CHECK (holder_kind IN ('shopper', 'merchant')),
        holder_id integer NOT NULL,
        purpose text NOT NULL CHECK (purpose IN ('newsletter', 'store_alerts', 'offers_by_mail')),
        given boolean NOT NULL,
        notice_version text NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The current consent is the latest row per holder and purpose: read newest first.
    await queryRunner.query(
      'CREATE INDEX consents_latest ON consents (holder_kind, holder_id, purpose, id DESC)',
    );
    await queryRunner.query(
      `INSERT INTO consents (holder_kind, holder_id, purpose, given, notice_version)
       SELECT 'shopper', user_id, 'store_alerts', true, $1 FROM store_follows GROUP BY user_id ORDER BY user_id`,
      [BEFORE_NOTICE],
    );
    await queryRunner.query(
      `INSERT INTO consents (holder_kind, holder_id, purpose, given, notice_version)
       SELECT 'shopper', u.id, p.purpose, true, $1
       FROM users u
       JOIN newsletter_subscribers s ON lower(s.email) = lower(u.email) AND s.status = 'confirmed'
       CROSS JOIN (VALUES ('newsletter'), ('offers_by_mail')) AS p (purpose)
       ORDER BY u.id, p.purpose`,
      [BEFORE_NOTICE],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE consents');
  }
}
