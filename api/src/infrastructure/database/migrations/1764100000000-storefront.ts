import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Storefront1764100000000 implements MigrationInterface {
  name = 'Storefront1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // One store page per merchant.
    await queryRunner.query(`
      CREATE TABLE merchant_stores (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        merchant_id integer NOT NULL UNIQUE REFERENCES merchants (id),
        store_name text NOT NULL,
        store_address text NOT NULL DEFAULT '',
        tagline text NOT NULL DEFAULT '',
        about_description text NOT NULL DEFAULT '',
        is_active boolean NOT NULL DEFAULT true,
        merchant_logo_id uuid REFERENCES media (id),
        landing_banner_id uuid REFERENCES media (id),
        hero_banner_image_id uuid REFERENCES media (id),
        created_date timestamptz NOT NULL DEFAULT now(),
        updated_date timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE merchant_categories (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        merchant_id integer NOT NULL REFERENCES merchants (id),
        category_name text NOT NULL,
        description text NOT NULL DEFAULT '',
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A merchant's category names are unique whatever their case; the index also settles races.
    await queryRunner.query(
      'CREATE UNIQUE INDEX merchant_categories_name_key ON merchant_categories (merchant_id, lower(category_name))',
    );
    await queryRunner.query(`
      CREATE TABLE products (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        merchant_id integer NOT NULL REFERENCES merchants (id),
        category_id integer REFERENCES merchant_categories (id),
        product_name text NOT NULL,
        brand text NOT NULL DEFAULT '',
        description text NOT NULL DEFAULT '',
        price_paise bigint NOT NULL CHECK (price_paise > 0),
        merchant_url text,
        image_small_id uuid REFERENCES media (id),
        image_medium_id uuid REFERENCES media (id),
        image_large_id uuid REFERENCES media (id),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
        rejection_reason text,
        advised_changes text,
        submitted_at timestamptz NOT NULL DEFAULT now(),
        reviewed_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX products_merchant ON products (merchant_id, id)');
    await queryRunner.query('CREATE INDEX products_category ON products (category_id)');
    await queryRunner.query('CREATE INDEX products_review ON products (status, submitted_at, id)');
    // Read model of the public store pages: the whole page per merchant, ready to send.
    await queryRunner.query(`
      CREATE TABLE store_pages (
        merchant_id integer PRIMARY KEY,
        document json NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['store_pages', 'products', 'merchant_categories', 'merchant_stores']) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
