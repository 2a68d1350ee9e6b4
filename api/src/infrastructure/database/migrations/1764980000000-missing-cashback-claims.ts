import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Missing-cashback claims and the admins' queue of purchases that wait for a decision.
 *
 * `missing_cashback_claims` holds every item of the queue: a shopper's claim for a click-out the
 * store never reported (`claim`, with its click, order and optional invoice), and purchases
 * recorded for their shopper but held until an admin decides (`no_click`: reported with a
 * referral code and no click; `over_cap`: cashback above the store's cap), which name their
 * earning. An order id is claimed once per store (whatever its case), a click once.
 *
 * `clicks.client_address_key` keeps a keyed digest of the click-out's client address group
 * (never the address), so a claim can say whether it was filed from where the click was made.
 * `earnings.held_for_review` marks a purchase that waits in the queue: neither the shopper's
 * cashback yet nor confirmable. `private_media` keeps images only their owner and admins see
 * (invoices), apart from the public, cacheable `media`.
 */
export class MissingCashbackClaims1764980000000 implements MigrationInterface {
  name = 'MissingCashbackClaims1764980000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE clicks ADD COLUMN client_address_key text');
    await queryRunner.query('ALTER TABLE earnings ADD COLUMN held_for_review boolean NOT NULL DEFAULT false');
    await queryRunner.query(`
      CREATE TABLE private_media (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        content_type text NOT NULL,
        size integer NOT NULL,
        bytes bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE missing_cashback_claims (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('claim', 'no_click', 'over_cap')),
        state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'approved', 'rejected')),
        user_id integer NOT NULL REFERENCES users (id),
        merchant_id integer NOT NULL REFERENCES merchants (id),
        coupon_id integer REFERENCES coupons (id),
        click_id text,
        clicked_at timestamptz,
        same_address boolean,
        order_id text NOT NULL,
        order_date date NOT NULL,
        amount_paise bigint NOT NULL CHECK (amount_paise > 0),
        invoice_id uuid REFERENCES private_media (id),
        earning_id integer REFERENCES earnings (id),
        filed_at timestamptz NOT NULL DEFAULT now(),
        answered_at timestamptz,
        answered_by_admin_id integer REFERENCES admins (id),
        reason text,
        CHECK ((state = 'open') = (answered_at IS NULL)),
        CHECK (state <> 'rejected' OR reason IS NOT NULL),
        CHECK (kind = 'claim' OR earning_id IS NOT NULL),
        CHECK (kind <> 'claim' OR click_id IS NOT NULL)
      )`);
    await queryRunner.query(
      "CREATE UNIQUE INDEX missing_cashback_claims_click ON missing_cashback_claims (click_id) WHERE kind = 'claim'",
    );
    await queryRunner.query(
      "CREATE UNIQUE INDEX missing_cashback_claims_order ON missing_cashback_claims (merchant_id, lower(order_id)) WHERE kind = 'claim'",
    );
    await queryRunner.query(
      "CREATE UNIQUE INDEX missing_cashback_claims_earning ON missing_cashback_claims (earning_id) WHERE kind <> 'claim'",
    );
    await queryRunner.query(
      'CREATE INDEX missing_cashback_claims_user ON missing_cashback_claims (user_id, state)',
    );
    await queryRunner.query(
      'CREATE INDEX missing_cashback_claims_state ON missing_cashback_claims (state, filed_at)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE missing_cashback_claims');
    await queryRunner.query('DROP TABLE private_media');
    await queryRunner.query('ALTER TABLE earnings DROP COLUMN held_for_review');
    await queryRunner.query('ALTER TABLE clicks DROP COLUMN client_address_key');
  }
}
