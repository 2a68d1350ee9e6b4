import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The shop front's eight categories on this migration's day, in display order. */
const CATEGORIES = [
  'Skin Care',
  'Makeup',
  'Hair Care',
  'Fragrance',
  'Bath & Body',
  'Tools & Accessories',
  "Men's Grooming",
  'Natural & Organic',
];

export class Coupons1763950000000 implements MigrationInterface {
  name = 'Coupons1763950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE media (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        sha256 text NOT NULL UNIQUE,
        content_type text NOT NULL,
        size integer NOT NULL,
        bytes bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE categories (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        position integer NOT NULL DEFAULT 0
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX categories_name_key ON categories (lower(name))');
    // The shop front's eight categories are reference data, present in every installation.
    await queryRunner.query(
      'INSERT INTO categories (name, position) SELECT name, position FROM unnest($1::text[]) WITH ORDINALITY AS c(name, position)',
      [CATEGORIES],
    );
    await queryRunner.query(`
      CREATE TABLE slots (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('free', 'paid')),
        price_paise bigint CHECK (price_paise >= 0),
        capacity integer NOT NULL CHECK (capacity > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((kind = 'paid') = (price_paise IS NOT NULL))
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX slots_name_key ON slots (lower(name))');
    await queryRunner.query(`
      CREATE TABLE coupons (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        merchant_id integer NOT NULL REFERENCES merchants (id),
        coupon_name text NOT NULL,
        coupon_code text NOT NULL,
        title text NOT NULL,
        description text NOT NULL,
        terms_and_conditions text NOT NULL,
        percentage integer NOT NULL CHECK (percentage BETWEEN 1 AND 100),
        discount_value integer NOT NULL CHECK (discount_value >= 1),
        expiry_date timestamptz NOT NULL,
        requested_slot_id integer NOT NULL REFERENCES slots (id),
        slot_id integer REFERENCES slots (id),
        merchant_url text,
        ad_image_id uuid REFERENCES media (id),
        status text NOT NULL DEFAULT 'pending'
          CHECK (status IN ('pending', 'live', 'rejected', 'expired', 'withdrawn')),
        rejection_reason text,
        submitted_at timestamptz NOT NULL DEFAULT now(),
        approved_at timestamptz,
        ended_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX coupons_merchant ON coupons (merchant_id, id)');
    await queryRunner.query('CREATE INDEX coupons_status ON coupons (status, submitted_at)');
    // The expiry sweep reads only live coupons in expiry order: its cost follows the coupons due.
    await queryRunner.query(
      "CREATE INDEX coupons_live_expiry ON coupons (expiry_date) WHERE status = 'live'",
    );
    await queryRunner.query("CREATE INDEX coupons_live_slot ON coupons (slot_id) WHERE status = 'live'");
    await queryRunner.query(`
      CREATE TABLE coupon_categories (
        coupon_id integer NOT NULL REFERENCES coupons (id) ON DELETE CASCADE,
        category_id integer NOT NULL REFERENCES categories (id),
        PRIMARY KEY (coupon_id, category_id)
      )`);
    // Read model of the public listings, kept by a consumer of the coupon events.
    await queryRunner.query(`
      CREATE TABLE coupon_listings (
        coupon_id integer PRIMARY KEY,
        merchant_id integer NOT NULL,
        merchant_name text NOT NULL,
        title text NOT NULL,
        description text NOT NULL,
        merchant_url text,
        image_id uuid,
        percentage integer NOT NULL,
        discount_value integer NOT NULL,
        expires_at timestamptz NOT NULL,
        category_ids integer[] NOT NULL,
        paid_slot boolean NOT NULL,
        approved_at timestamptz NOT NULL,
        clicks integer NOT NULL DEFAULT 0,
        popularity double precision,
        search tsvector NOT NULL
      )`);
    await queryRunner.query(
      'CREATE INDEX coupon_listings_popular ON coupon_listings (popularity DESC NULLS LAST, coupon_id)',
    );
    await queryRunner.query(
      'CREATE INDEX coupon_listings_newest ON coupon_listings (approved_at DESC, coupon_id)',
    );
    await queryRunner.query('CREATE INDEX coupon_listings_az ON coupon_listings (lower(title), coupon_id)');
    await queryRunner.query(
      'CREATE INDEX coupon_listings_best ON coupon_listings (percentage DESC, discount_value DESC, coupon_id)',
    );
    await queryRunner.query(
      'CREATE INDEX coupon_listings_expiring ON coupon_listings (expires_at, coupon_id)',
    );
    await queryRunner.query(
      'CREATE INDEX coupon_listings_categories ON coupon_listings USING gin (category_ids)',
    );
    await queryRunner.query('CREATE INDEX coupon_listings_search ON coupon_listings USING gin (search)');
    await queryRunner.query('CREATE INDEX coupon_listings_merchant ON coupon_listings (merchant_id)');
    // Reveal clicks per coupon, whatever its state, for the merchant's own list.
    await queryRunner.query(`
      CREATE TABLE coupon_clicks (
        coupon_id integer PRIMARY KEY,
        clicks integer NOT NULL DEFAULT 0,
        last_clicked_at timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'coupon_clicks',
      'coupon_listings',
      'coupon_categories',
      'coupons',
      'slots',
      'categories',
      'media',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
