import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The stores of affiliate networks' advertisers, and the networks' categories mapped to ours.
 *
 * A store an admin creates for an advertiser is a `merchants` row without an account: no user
 * name, password, email, mobile or referral code, so nobody signs in to it (every sign-in and
 * reset looks a merchant up by one of those, and NULL matches none). A merchant has all four of
 * user name, password, email and mobile, or none of them. A store without an account is public
 * (it needs no confirmed email) unless an admin hides it.
 *
 * `feed_advertisers`: each network advertiser (a source's campaign id) seen by an import, mapped
 * once to a store; until then its rows wait (`rows_waiting`, as counted by the last run that read
 * them). `feed_categories`: each network category name a source's rows used, and our category it
 * stands for (NULL: none); a name is mapped by default to our category of the same name, whatever
 * the case.
 */
export class FeedAdvertisers1764930000000 implements MigrationInterface {
  name = 'FeedAdvertisers1764930000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE merchants
        ALTER COLUMN email DROP NOT NULL,
        ALTER COLUMN mobile DROP NOT NULL,
        ALTER COLUMN user_name DROP NOT NULL,
        ALTER COLUMN password_hash DROP NOT NULL,
        ALTER COLUMN referral_code DROP NOT NULL,
        ADD CONSTRAINT merchants_account CHECK (
          (user_name IS NULL) = (password_hash IS NULL) AND (user_name IS NULL) = (email IS NULL)
          AND (user_name IS NULL) = (mobile IS NULL))`);

    await queryRunner.query(`
      CREATE TABLE feed_advertisers (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source_id integer NOT NULL REFERENCES feed_sources (id) ON DELETE CASCADE,
        advertiser_id text NOT NULL CHECK (char_length(advertiser_id) BETWEEN 1 AND 200),
        name text,
        site_url text,
        merchant_id integer REFERENCES merchants (id),
        rows_waiting integer NOT NULL DEFAULT 0 CHECK (rows_waiting >= 0),
        last_run_id integer,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        mapped_at timestamptz,
        UNIQUE (source_id, advertiser_id)
      )`);
    await queryRunner.query(
      'CREATE INDEX feed_advertisers_unmapped ON feed_advertisers (last_seen_at DESC) WHERE merchant_id IS NULL',
    );
    await queryRunner.query('CREATE INDEX feed_advertisers_merchant ON feed_advertisers (merchant_id)');

    await queryRunner.query(`
      CREATE TABLE feed_categories (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source_id integer NOT NULL REFERENCES feed_sources (id) ON DELETE CASCADE,
        name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
        category_id integer REFERENCES categories (id),
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      'CREATE UNIQUE INDEX feed_categories_name ON feed_categories (source_id, lower(name))',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE feed_categories');
    await queryRunner.query('DROP TABLE feed_advertisers');
    await queryRunner.query(`
      ALTER TABLE merchants
        DROP CONSTRAINT merchants_account,
        ALTER COLUMN email SET NOT NULL,
        ALTER COLUMN mobile SET NOT NULL,
        ALTER COLUMN user_name SET NOT NULL,
        ALTER COLUMN password_hash SET NOT NULL,
        ALTER COLUMN referral_code SET NOT NULL`);
  }
}
