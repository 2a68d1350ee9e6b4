import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payouts of a shopper's confirmed cashback to a UPI ID or a bank account. The full account
 * number stays here for the admins' payout run; every other answer shows its last four digits.
 * The checks keep each state's facts: a paid payout has its bank reference, a failed one its reason.
 */
export class Payouts1764810000000 implements MigrationInterface {
  name = 'Payouts1764810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE payouts (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_id integer NOT NULL REFERENCES users (id),
        amount_paise bigint NOT NULL CHECK (amount_paise > 0),
        method text NOT NULL CHECK (method IN ('upi', 'bank')),
        upi_id text,
        account_number text,
        ifsc text,
        account_holder_name text,
        state text NOT NULL DEFAULT 'requested'
          CHECK (state IN ('requested', 'processing', 'paid', 'failed')),
        bank_reference text,
        failure_reason text,
        requested_at timestamptz NOT NULL DEFAULT now(),
        processing_at timestamptz,
        paid_at timestamptz,
        failed_at timestamptz,
        CHECK (method <> 'upi' OR (upi_id IS NOT NULL AND account_number IS NULL AND ifsc IS NULL)),
        CHECK (method <> 'bank' OR (upi_id IS NULL AND account_number IS NOT NULL AND ifsc IS NOT NULL)),
        CHECK (state <> 'paid' OR bank_reference IS NOT NULL),
        CHECK (state <> 'failed' OR failure_reason IS NOT NULL)
      )`);
    // A shopper's payouts, newest first, and the sum the balance subtracts.
    await queryRunner.query('CREATE INDEX payouts_user ON payouts (user_id, requested_at DESC, id DESC)');
    // The admins' queue: open payouts, oldest first.
    await queryRunner.query(
      "CREATE INDEX payouts_open ON payouts (requested_at, id) WHERE state IN ('requested', 'processing')",
    );
    // One transfer pays one payout: a reference typed twice is a mistake, caught here.
    await queryRunner.query(
      'CREATE UNIQUE INDEX payouts_bank_reference ON payouts (upper(bank_reference)) WHERE bank_reference IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE payouts');
  }
}
