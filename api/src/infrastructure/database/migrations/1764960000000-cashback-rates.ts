import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stores' cashback as its own model, with its history, and referral bonuses that follow their
 * purchase.
 *
 * A rate is a kind and a value: `percent` in basis points (1250 = 12.5 %) or `flat` in paise.
 * `store_cashback` holds a store's base rate (none: the site's default), its terms and exclusions
 * in en/hi/te, the days it takes to confirm, its claim window and its cap per purchase;
 * `store_category_cashback` its rates per category name; `coupon_cashback` a coupon's own rate.
 * `cashback_changes` is every change, with who made it: the rates' rows also say which rate was in
 * force from when, so the rate of a click is read as of the click's time. The rates merchants and
 * coupons had (`cashback_rate_bp`) move here, in force since the merchant registered or the coupon
 * was submitted (no click is older), and the old columns go.
 *
 * `cashback_proposals`: a rate a feed source's payouts suggest for a store, until an admin accepts
 * or dismisses it; one open proposal per store and source.
 *
 * Earnings keep a flat rate's amount (`flat_rate_paise`) beside `rate_bp`, and whether the
 * cashback passed the store's cap (`over_cap`: an admin confirms it, a network's approval does
 * not). A referral bonus is no longer unique per referred shopper once cancelled: another of the
 * shopper's purchases may earn it then.
 */
export class CashbackRates1764960000000 implements MigrationInterface {
  name = 'CashbackRates1764960000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const rate = (prefix: string, nullable: boolean) => `
        ${prefix}rate_kind text ${nullable ? '' : 'NOT NULL'} CHECK (${prefix}rate_kind IN ('percent', 'flat')),
        ${prefix}rate_value bigint ${nullable ? '' : 'NOT NULL'},
        CHECK ((${prefix}rate_kind IS NULL) = (${prefix}rate_value IS NULL)),
        CHECK (${prefix}rate_kind <> 'percent' OR ${prefix}rate_value BETWEEN 0 AND 10000),
        CHECK (${prefix}rate_kind <> 'flat' OR ${prefix}rate_value BETWEEN 0 AND 999999999)`;
    await queryRunner.query(`
      CREATE TABLE store_cashback (
        merchant_id integer PRIMARY KEY REFERENCES merchants (id),
        ${rate('', true)},
        terms jsonb NOT NULL DEFAULT '{"en": "", "hi": "", "te": ""}',
        exclusions jsonb NOT NULL DEFAULT '{"en": "", "hi": "", "te": ""}',
        confirm_days integer NOT NULL DEFAULT 60 CHECK (confirm_days BETWEEN 1 AND 365),
        claim_window_days integer NOT NULL DEFAULT 30 CHECK (claim_window_days BETWEEN 1 AND 90),
        cap_paise bigint CHECK (cap_paise > 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE store_category_cashback (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        merchant_id integer NOT NULL REFERENCES merchants (id),
        category_key text NOT NULL,
        category_name text NOT NULL,
        ${rate('', false)},
        UNIQUE (merchant_id, category_key)
      )`);
    await queryRunner.query(`
      CREATE TABLE coupon_cashback (
        coupon_id integer PRIMARY KEY REFERENCES coupons (id),
        merchant_id integer NOT NULL REFERENCES merchants (id),
        ${rate('', false)}
      )`);
    await queryRunner.query('CREATE INDEX coupon_cashback_merchant ON coupon_cashback (merchant_id)');
    await queryRunner.query(`
      CREATE TABLE cashback_proposals (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        merchant_id integer NOT NULL REFERENCES merchants (id),
        source_id integer NOT NULL REFERENCES feed_sources (id),
        payout_kind text NOT NULL CHECK (payout_kind IN ('percent', 'flat')),
        payout_value bigint NOT NULL CHECK (payout_value > 0),
        share_bp integer NOT NULL CHECK (share_bp BETWEEN 0 AND 10000),
        ${rate('', false)},
        state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'accepted', 'dismissed')),
        proposed_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz,
        decided_by_admin_id integer REFERENCES admins (id),
        CHECK ((state = 'open') = (decided_at IS NULL))
      )`);
    await queryRunner.query(
      "CREATE UNIQUE INDEX cashback_proposals_open ON cashback_proposals (merchant_id, source_id) WHERE state = 'open'",
    );
    await queryRunner.query(`
      CREATE TABLE cashback_changes (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        merchant_id integer NOT NULL REFERENCES merchants (id),
        scope text NOT NULL CHECK (scope IN ('store', 'category', 'coupon', 'terms')),
        category_key text,
        category_name text,
        coupon_id integer REFERENCES coupons (id),
        ${rate('', true)},
        changes jsonb NOT NULL,
        origin text NOT NULL CHECK (origin IN ('admin', 'proposal', 'migration')),
        admin_id integer REFERENCES admins (id),
        proposal_id integer REFERENCES cashback_proposals (id),
        note text,
        changed_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((scope = 'category') = (category_key IS NOT NULL)),
        CHECK ((scope = 'coupon') = (coupon_id IS NOT NULL)),
        CHECK (scope <> 'terms' OR rate_kind IS NULL)
      )`);
    // The rate in force at a time: the latest change of its scope (and category or coupon) before it.
    await queryRunner.query(
      'CREATE INDEX cashback_changes_in_force ON cashback_changes (merchant_id, scope, category_key, coupon_id, changed_at DESC, id DESC)',
    );
    await queryRunner.query(
      'CREATE INDEX cashback_changes_history ON cashback_changes (merchant_id, changed_at DESC, id DESC)',
    );

    await queryRunner.query(`
      INSERT INTO store_cashback (merchant_id, rate_kind, rate_value)
      SELECT id, 'percent', cashback_rate_bp FROM merchants WHERE cashback_rate_bp IS NOT NULL`);
    await queryRunner.query(`
      INSERT INTO cashback_changes (merchant_id, scope, rate_kind, rate_value, changes, origin, changed_at)
      SELECT id, 'store', 'percent', cashback_rate_bp,
             jsonb_build_object('rate', jsonb_build_object('from', NULL,
               'to', jsonb_build_object('percent', to_char(cashback_rate_bp / 100.0, 'FM9990.00')))),
             'migration', registered_on
      FROM merchants WHERE cashback_rate_bp IS NOT NULL`);
    await queryRunner.query(`
      INSERT INTO coupon_cashback (coupon_id, merchant_id, rate_kind, rate_value)
      SELECT id, merchant_id, 'percent', cashback_rate_bp FROM coupons WHERE cashback_rate_bp IS NOT NULL`);
    await queryRunner.query(`
      INSERT INTO cashback_changes (merchant_id, scope, coupon_id, rate_kind, rate_value, changes, origin, changed_at)
      SELECT merchant_id, 'coupon', id, 'percent', cashback_rate_bp,
             jsonb_build_object('rate', jsonb_build_object('from', NULL,
               'to', jsonb_build_object('percent', to_char(cashback_rate_bp / 100.0, 'FM9990.00')))),
             'migration', submitted_at
      FROM coupons WHERE cashback_rate_bp IS NOT NULL`);
    for (const table of ['merchants', 'coupons']) {
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN cashback_rate_bp`);
    }

    await queryRunner.query(`
      ALTER TABLE earnings
        ADD COLUMN flat_rate_paise bigint CHECK (flat_rate_paise >= 0),
        ADD COLUMN over_cap boolean NOT NULL DEFAULT false`);
    await queryRunner.query('DROP INDEX earnings_referral_once');
    await queryRunner.query(`
      CREATE UNIQUE INDEX earnings_referral_once ON earnings (referred_user_id)
      WHERE kind = 'referral' AND state <> 'cancelled'`);
    await queryRunner.query(
      "CREATE INDEX earnings_referral_source ON earnings (source_earning_id) WHERE kind = 'referral'",
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX earnings_referral_source');
    await queryRunner.query('DROP INDEX earnings_referral_once');
    await queryRunner.query(
      "CREATE UNIQUE INDEX earnings_referral_once ON earnings (referred_user_id) WHERE kind = 'referral'",
    );
    await queryRunner.query('ALTER TABLE earnings DROP COLUMN flat_rate_paise, DROP COLUMN over_cap');
    for (const table of ['merchants', 'coupons']) {
      await queryRunner.query(
        `ALTER TABLE ${table} ADD COLUMN cashback_rate_bp integer CHECK (cashback_rate_bp BETWEEN 0 AND 10000)`,
      );
    }
    // Percent rates go back; flat and category rates have no column to go to.
    await queryRunner.query(`
      UPDATE merchants m SET cashback_rate_bp = s.rate_value
      FROM store_cashback s WHERE s.merchant_id = m.id AND s.rate_kind = 'percent'`);
    await queryRunner.query(`
      UPDATE coupons c SET cashback_rate_bp = k.rate_value
      FROM coupon_cashback k WHERE k.coupon_id = c.id AND k.rate_kind = 'percent'`);
    for (const table of [
      'cashback_changes',
      'cashback_proposals',
      'coupon_cashback',
      'store_category_cashback',
      'store_cashback',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
