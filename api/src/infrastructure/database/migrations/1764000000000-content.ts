import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Content1764000000000 implements MigrationInterface {
  name = 'Content1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE hero_images (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        image_id uuid NOT NULL REFERENCES media (id),
        merchant_url text NOT NULL,
        sort_order integer NOT NULL DEFAULT 0,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE banners (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        position text NOT NULL CHECK (position IN ('cat', 'Tc', 'Bo', 'left', 'right')),
        image_id uuid NOT NULL REFERENCES media (id),
        merchant_url text NOT NULL,
        sort_order integer NOT NULL DEFAULT 0,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE seasonal_offers (
        slot smallint PRIMARY KEY CHECK (slot BETWEEN 1 AND 4),
        image_id uuid NOT NULL REFERENCES media (id),
        merchant_url text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE flash_texts (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        text text NOT NULL,
        content_type text NOT NULL CHECK (content_type IN ('text', 'image')),
        position text NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        merchant_url text,
        image_id uuid REFERENCES media (id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE best_offer_banners (
        id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        name text NOT NULL,
        type text NOT NULL,
        frame text NOT NULL,
        image_id uuid NOT NULL REFERENCES media (id),
        merchant_url text NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        uploaded_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The home page's content as the public reads it, one document rebuilt by its projection.
    await queryRunner.query(`
      CREATE TABLE home_content (
        id smallint PRIMARY KEY CHECK (id = 1),
        document jsonb NOT NULL,
        built_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      INSERT INTO home_content (id, document) VALUES (1,
        '{"heroes": [], "banners": {"cat": [], "Tc": [], "Bo": [], "left": [], "right": []},
          "seasonalOffers": [], "flashTexts": {}, "bestOfferBanner": null}')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'DROP TABLE home_content, best_offer_banners, flash_texts, seasonal_offers, banners, hero_images',
    );
  }
}
