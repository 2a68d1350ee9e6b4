import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The home page's texts in Hindi and Telugu beside English: the flash text and the best-offer
 * banner's name keep their text as the English one; heroes, banners and seasonal offers get a
 * title and an alt text, empty on the rows made before (their pictures carried their words).
 * The public document needs no rebuild: a missing translation reads as English, a missing title
 * as none.
 */
export class HomeContentLanguages1764700000000 implements MigrationInterface {
  name = 'HomeContentLanguages1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['hero_images', 'banners', 'seasonal_offers']) {
      await queryRunner.query(`
        ALTER TABLE ${table}
          ADD COLUMN title text, ADD COLUMN title_hi text, ADD COLUMN title_te text,
          ADD COLUMN alt_text text, ADD COLUMN alt_text_hi text, ADD COLUMN alt_text_te text`);
    }
    await queryRunner.query('ALTER TABLE flash_texts ADD COLUMN text_hi text, ADD COLUMN text_te text');
    await queryRunner.query(
      'ALTER TABLE best_offer_banners ADD COLUMN name_hi text, ADD COLUMN name_te text',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE best_offer_banners DROP COLUMN name_hi, DROP COLUMN name_te');
    await queryRunner.query('ALTER TABLE flash_texts DROP COLUMN text_hi, DROP COLUMN text_te');
    for (const table of ['hero_images', 'banners', 'seasonal_offers']) {
      await queryRunner.query(`
        ALTER TABLE ${table}
          DROP COLUMN title, DROP COLUMN title_hi, DROP COLUMN title_te,
          DROP COLUMN alt_text, DROP COLUMN alt_text_hi, DROP COLUMN alt_text_te`);
    }
  }
}
