import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Identity1763900000000 implements MigrationInterface {
  name = 'Identity1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE referral_codes (
        code text PRIMARY KEY,
        owner_type text NOT NULL CHECK (owner_type IN ('user', 'merchant')),
        owner_id integer NOT NULL,
        UNIQUE (owner_type, owner_id)
      )`);
    await queryRunner.query(`
      CREATE TABLE users (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        user_name text NOT NULL,
        email text NOT NULL,
        mobile_number text NOT NULL,
        password_hash text NOT NULL,
        referral_code text NOT NULL UNIQUE,
        referred_by text NOT NULL,
        address text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Names matter: a unique violation is reported to the client as the field its index guards.
    await queryRunner.query('CREATE UNIQUE INDEX users_email_key ON users (lower(email))');
    await queryRunner.query('CREATE UNIQUE INDEX users_mobile_key ON users (mobile_number)');
    await queryRunner.query(`
      CREATE TABLE merchants (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        merchant_name text NOT NULL,
        brand_name text NOT NULL,
        industry text NOT NULL,
        category text NOT NULL,
        address text NOT NULL,
        email text NOT NULL,
        mobile text NOT NULL,
        merchant_url text NOT NULL,
        user_name text NOT NULL,
        password_hash text NOT NULL,
        referral_code text NOT NULL UNIQUE,
        referred_by_code text NOT NULL,
        referred_by_type text NOT NULL,
        is_email_confirmed boolean NOT NULL DEFAULT false,
        email_confirmation_expires_at timestamptz,
        registered_on timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX merchants_email_key ON merchants (lower(email))');
    await queryRunner.query('CREATE UNIQUE INDEX merchants_mobile_key ON merchants (mobile)');
    await queryRunner.query('CREATE UNIQUE INDEX merchants_user_name_key ON merchants (lower(user_name))');
    await queryRunner.query(`
      CREATE TABLE admins (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        username text NOT NULL,
        email text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX admins_username_key ON admins (lower(username))');
    await queryRunner.query('CREATE UNIQUE INDEX admins_email_key ON admins (lower(email))');
    await queryRunner.query(`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        cookie_token_hash text NOT NULL UNIQUE,
        bearer_token_hash text NOT NULL UNIQUE,
        xsrf_token text NOT NULL,
        role text NOT NULL CHECK (role IN ('user', 'merchant', 'admin')),
        account_id integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX sessions_expiry ON sessions (expires_at)');
    await queryRunner.query('CREATE INDEX sessions_account ON sessions (role, account_id)');
    await queryRunner.query(`
      CREATE TABLE sign_in_failures (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        key text NOT NULL,
        failed_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX sign_in_failures_key ON sign_in_failures (key, failed_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['sign_in_failures', 'sessions', 'admins', 'merchants', 'users', 'referral_codes']) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
