import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What is kept, and for how long.
 *
 * Events carry ids, not a person's fields: the fields the account events carried until now
 * (names, email addresses, sign-in names, a profile change's new values) are removed from the
 * payloads already in the log. No
 * read model used them (the mail consumer reads the account by id), so a rebuild from the log
 * gives the same read models. The inbox holds event ids only and needs no scrubbing.
 *
 * A mail keeps, once sent, its template, language, recipient and the parameters it was rendered
 * with minus any that act (links with tokens); its subject, bodies and headers (which carried
 * password-reset, confirmation and unsubscribe links) are emptied. `parameters` is new: mails
 * recorded before it have none. Mails already sent or given up are emptied here.
 *
 * `click_days` counts the anonymous click-outs the retention sweep removed, per day (India's),
 * coupon and merchant. Anonymous clicks older than the retention period are found by the partial
 * index, one partition at a time.
 *
 * Running it again changes nothing more (every step is idempotent): a test runs it over events
 * recorded in the older shape to check the read models rebuild the same after the scrub.
 */
const SCRUBBED_FIELDS: Record<string, string[]> = {
  UserRegistered: ['userName', 'email'],
  MerchantRegistered: ['merchantName', 'email'],
  MerchantEmailConfirmed: ['email'],
  StoreClaimed: ['userName'],
};

export class Retention1765200000000 implements MigrationInterface {
  name = 'Retention1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A profile change carried the new values: it now names the fields that changed.
    await queryRunner.query(`
      UPDATE outbox SET payload = jsonb_build_object(
        'changed', coalesce((SELECT jsonb_agg(field ORDER BY field) FROM jsonb_object_keys(payload) field), '[]'))
      WHERE type IN ('UserProfileUpdated', 'MerchantProfileUpdated') AND NOT payload ? 'changed'`);
    for (const [type, fields] of Object.entries(SCRUBBED_FIELDS)) {
      await queryRunner.query(
        'UPDATE outbox SET payload = payload - $2::text[] WHERE type = $1 AND payload ?| $2::text[]',
        [type, fields],
      );
    }

    await queryRunner.query(
      "ALTER TABLE outgoing_mails ADD COLUMN IF NOT EXISTS parameters jsonb NOT NULL DEFAULT '{}'",
    );
    await queryRunner.query(`
      UPDATE outgoing_mails SET subject = '', text_body = '', html_body = '', headers = '{}'
      WHERE status <> 'pending' AND (text_body <> '' OR html_body <> '' OR subject <> '' OR headers <> '{}')`);

    await queryRunner.query(`
      CREATE TABLE IF NOT EXISTS click_days (
        day date NOT NULL,
        coupon_id integer NOT NULL,
        merchant_id integer NOT NULL,
        count integer NOT NULL CHECK (count > 0),
        PRIMARY KEY (day, coupon_id, merchant_id)
      )`);
    await queryRunner.query(
      'CREATE INDEX IF NOT EXISTS clicks_anonymous ON clicks (clicked_at) WHERE user_id IS NULL',
    );
    // The inbox sweep reads the oldest handled rows first.
    await queryRunner.query('CREATE INDEX IF NOT EXISTS inbox_handled ON inbox (handled_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX inbox_handled');
    await queryRunner.query('DROP INDEX clicks_anonymous');
    await queryRunner.query('DROP TABLE click_days');
    await queryRunner.query('ALTER TABLE outgoing_mails DROP COLUMN parameters');
  }
}
