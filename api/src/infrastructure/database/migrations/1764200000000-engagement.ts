import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Mail, newsletter, contact messages, cashback earnings and referral rewards. */
export class Engagement1764200000000 implements MigrationInterface {
  name = 'Engagement1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['users', 'merchants']) {
      await queryRunner.query(
        `ALTER TABLE ${table} ADD COLUMN language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi', 'te'))`,
      );
    }
    // Cashback rates in basis points (1250 = 12.5 %); null falls back to the merchant's, then the default.
    for (const table of ['merchants', 'coupons']) {
      await queryRunner.query(
        `ALTER TABLE ${table} ADD COLUMN cashback_rate_bp integer CHECK (cashback_rate_bp BETWEEN 0 AND 10000)`,
      );
    }
    await queryRunner.query('ALTER TABLE merchants ADD COLUMN postback_secret text');

    // Every mail the product sends, recorded before it is sent: the idempotency key makes a
    // redelivered event or a resumed campaign find the row instead of mailing again.
    await queryRunner.query(`
      CREATE TABLE outgoing_mails (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        idempotency_key text NOT NULL UNIQUE,
        template text NOT NULL,
        recipient text NOT NULL,
        language text NOT NULL,
        subject text NOT NULL,
        text_body text NOT NULL,
        html_body text NOT NULL,
        headers jsonb NOT NULL DEFAULT '{}',
        campaign_id integer,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz
      )`);
    await queryRunner.query(
      "CREATE INDEX outgoing_mails_due ON outgoing_mails (next_attempt_at) WHERE status = 'pending'",
    );
    await queryRunner.query('CREATE INDEX outgoing_mails_campaign ON outgoing_mails (campaign_id, status)');

    // What the development mail catcher received (only written when no SMTP_URL is set).
    await queryRunner.query(`
      CREATE TABLE dev_mailbox (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        sender text NOT NULL,
        recipients text NOT NULL,
        subject text NOT NULL,
        text_body text NOT NULL,
        html_body text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);

    await queryRunner.query(`
      CREATE TABLE newsletter_subscribers (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        email text NOT NULL,
        language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi', 'te')),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'confirmed', 'unsubscribed')),
        confirmation_sent_at timestamptz,
        confirmed_at timestamptz,
        unsubscribed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      'CREATE UNIQUE INDEX newsletter_subscribers_email_key ON newsletter_subscribers (lower(email))',
    );

    await queryRunner.query(`
      CREATE TABLE campaigns (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        subject text NOT NULL,
        body text NOT NULL,
        featured_coupon_ids integer[] NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'sending', 'sent')),
        recipients_total integer NOT NULL DEFAULT 0,
        sent_count integer NOT NULL DEFAULT 0,
        skipped_count integer NOT NULL DEFAULT 0,
        send_started_at timestamptz,
        sent_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Who a campaign goes to, fixed when its sending starts; queued_at marks the recipients whose
    // mail row exists (or who unsubscribed meanwhile), so a batch run twice queues nobody twice.
    await queryRunner.query(`
      CREATE TABLE campaign_recipients (
        campaign_id integer NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
        subscriber_id integer NOT NULL REFERENCES newsletter_subscribers (id),
        queued_at timestamptz,
        skipped boolean NOT NULL DEFAULT false,
        PRIMARY KEY (campaign_id, subscriber_id)
      )`);

    await queryRunner.query(`
      CREATE TABLE contact_messages (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        email text NOT NULL,
        mobile text,
        message text NOT NULL,
        handled boolean NOT NULL DEFAULT false,
        handled_at timestamptz,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);

    // Cashback on purchases and referral bonuses, in paise. A cashback row is a purchase reported
    // by a postback; a referral row is the bonus of whoever referred the buyer.
    await queryRunner.query(`
      CREATE TABLE earnings (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('cashback', 'referral')),
        user_id integer REFERENCES users (id),
        beneficiary_merchant_id integer REFERENCES merchants (id),
        merchant_id integer REFERENCES merchants (id),
        coupon_id integer REFERENCES coupons (id),
        purchase_reference text,
        purchase_type text,
        purchase_amount_paise bigint CHECK (purchase_amount_paise >= 0),
        rate_bp integer,
        amount_paise bigint NOT NULL CHECK (amount_paise >= 0),
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'confirmed', 'paid', 'cancelled')),
        referred_user_id integer REFERENCES users (id),
        source_earning_id integer REFERENCES earnings (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        confirmed_at timestamptz,
        paid_at timestamptz,
        cancelled_at timestamptz,
        CHECK ((user_id IS NULL) <> (beneficiary_merchant_id IS NULL)),
        CHECK (kind = 'referral' OR (merchant_id IS NOT NULL AND purchase_reference IS NOT NULL))
      )`);
    await queryRunner.query(
      "CREATE UNIQUE INDEX earnings_purchase_key ON earnings (merchant_id, purchase_reference) WHERE kind = 'cashback'",
    );
    // One referral bonus per referred user, whatever the concurrency.
    await queryRunner.query(
      "CREATE UNIQUE INDEX earnings_referral_once ON earnings (referred_user_id) WHERE kind = 'referral'",
    );
    await queryRunner.query('CREATE INDEX earnings_user ON earnings (user_id, created_at DESC, id DESC)');
    await queryRunner.query(
      'CREATE INDEX earnings_merchant_beneficiary ON earnings (beneficiary_merchant_id, created_at DESC)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'earnings',
      'contact_messages',
      'campaign_recipients',
      'campaigns',
      'newsletter_subscribers',
      'dev_mailbox',
      'outgoing_mails',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
    await queryRunner.query('ALTER TABLE merchants DROP COLUMN postback_secret');
    for (const table of ['merchants', 'coupons']) {
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN cashback_rate_bp`);
    }
    for (const table of ['users', 'merchants']) {
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN language`);
    }
  }
}
