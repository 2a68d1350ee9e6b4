import type { MigrationInterface, QueryRunner } from 'typeorm';
import { addSearchWordsSql, categoryNamesSql, searchVectorSql } from '../../coupons/queries/search.js';

/**
 * Search that forgives word forms, prefixes and small typos (coupons/queries/search.ts): the
 * listing's search vector gains stemmed words, weights and category names; the words of titles and
 * store names make the vocabulary typos are corrected to, with a trigram index. pg_trgm ships with
 * PostgreSQL and is a trusted extension (PostgreSQL 13+): the database's owner may create it.
 */
export class ForgivingSearch1764470000000 implements MigrationInterface {
  name = 'ForgivingSearch1764470000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await queryRunner.query(`
      UPDATE coupon_listings SET
        search = ${searchVectorSql('title', 'merchant_name', 'description', categoryNamesSql('coupon_id'))}`);
    // Byte order ("C"): a word's beginnings are a range of the primary key.
    await queryRunner.query('CREATE TABLE search_words (word text COLLATE "C" PRIMARY KEY)');
    await queryRunner.query(
      'CREATE INDEX search_words_trigrams ON search_words USING gin (word gin_trgm_ops)',
    );
    await queryRunner.query(addSearchWordsSql('true'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE search_words');
  }
}
