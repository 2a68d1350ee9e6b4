import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A coupon's category names, one text, as the search vector of this day took them. */
const CATEGORY_NAMES = `coalesce((SELECT string_agg(g.name, ' ') FROM coupon_categories cc
  JOIN categories g ON g.id = cc.category_id WHERE cc.coupon_id = coupon_id), '')`;

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
    // Title and store name weigh A, description and category names B; `english` stems, `simple`
    // keeps every word as written. In the subquery `coupon_id` names coupon_categories' own column,
    // as the statement ran on this day.
    await queryRunner.query(`
      UPDATE coupon_listings SET search =
        setweight(to_tsvector('english', title || ' ' || merchant_name), 'A')
        || setweight(to_tsvector('simple', title || ' ' || merchant_name), 'A')
        || setweight(to_tsvector('english', description || ' ' || ${CATEGORY_NAMES}), 'B')
        || setweight(to_tsvector('simple', description || ' ' || ${CATEGORY_NAMES}), 'B')`);
    // Byte order ("C"): a word's beginnings are a range of the primary key.
    await queryRunner.query('CREATE TABLE search_words (word text COLLATE "C" PRIMARY KEY)');
    await queryRunner.query(
      'CREATE INDEX search_words_trigrams ON search_words USING gin (word gin_trgm_ops)',
    );
    // The vocabulary: words of titles and store names of 4 letters or more, not mere numbers.
    await queryRunner.query(`
      INSERT INTO search_words (word)
      SELECT DISTINCT word FROM coupon_listings,
        unnest(tsvector_to_array(to_tsvector('simple', title || ' ' || merchant_name))) AS word
      WHERE char_length(word) >= 4 AND word !~ '^[0-9]+$'
      ON CONFLICT DO NOTHING`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE search_words');
  }
}
