import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { cashbackUpTo } from '../../cashback/queries/shown.js';
import { searchSql, searchWords } from '../../coupons/queries/search.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { CATEGORY_SLUGS } from '../../rules/addresses.js';
import { SEARCH_SUGGESTIONS } from '../../rules/coupons.js';
import type { Suggestions } from './answers.js';

/** Similar enough for a store's name to be offered for a word with a typo. */
const STORE_SIMILARITY = 0.5;

/** What the search box offers as one types: stores, categories and coupons, a few of each. */
@Injectable()
export class SearchSuggestions {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly environment: Environment,
  ) {}

  async suggest(text: string): Promise<Suggestions> {
    const words = searchWords(text);
    if (words.length === 0) return { stores: [], categories: [], coupons: [] };
    const [stores, categories, coupons] = await Promise.all([
      this.stores(words),
      this.categories(words),
      this.coupons(text),
    ]);
    return { stores, categories, coupons };
  }

  /** Stores whose name has every word as the start of one of its words, or close to one of them. */
  private async stores(words: string[]): Promise<Suggestions['stores']> {
    const conditions = words.map(
      (_word, index) =>
        `(lower(document->>'storeName') ~ ('(^|[^[:alnum:]])' || $${index + 1}) OR word_similarity($${index + 1}, lower(document->>'storeName')) >= ${STORE_SIMILARITY})`,
    );
    const rows = await this.dataSource.query(
      `SELECT merchant_id, slug, document->>'storeName' AS name, document->>'logoUrl' AS logo_url
       FROM store_pages WHERE ${conditions.join(' AND ')}
       ORDER BY word_similarity($1, lower(document->>'storeName')) DESC, lower(document->>'storeName'), merchant_id
       LIMIT ${SEARCH_SUGGESTIONS.perKind}`,
      words.map(escapeRegex),
    );
    const cashback = await cashbackUpTo(
      this.dataSource,
      rows.map((row: { merchant_id: number }) => row.merchant_id),
      [],
      this.environment,
    );
    return rows.map((row: Record<string, never>) => ({
      merchantId: row.merchant_id,
      name: row.name,
      slug: row.slug,
      logoUrl: row.logo_url ?? null,
      cashback: cashback.store(row.merchant_id),
    }));
  }

  /** The shop front's categories whose name has every word as the start of one of its words. */
  private async categories(words: string[]): Promise<Suggestions['categories']> {
    const rows: Array<{ id: number; name: string }> = await this.dataSource.query(
      'SELECT id, name FROM categories ORDER BY position, id',
    );
    return rows
      .filter(({ name }) => {
        const nameWords = name.toLowerCase().split(/[^\p{L}\p{M}\p{N}]+/u);
        return words.every((word) => nameWords.some((nameWord) => nameWord.startsWith(word)));
      })
      .slice(0, SEARCH_SUGGESTIONS.perKind)
      .map(({ id, name }) => ({
        id,
        name,
        slug:
          CATEGORY_SLUGS.find((category) => category.name.toLowerCase() === name.toLowerCase())?.slug ?? '',
      }));
  }

  /** The best matching live coupons, as the coupon search finds and ranks them. */
  private async coupons(text: string): Promise<Suggestions['coupons']> {
    const parameters: unknown[] = [];
    const search = searchSql(text, (value) => {
      parameters.push(value);
      return `$${parameters.length}`;
    });
    if (!search) return [];
    // A short beginning matches a great part of the coupons: the best few are chosen among the
    // first matches the indexes give, so the time stays bounded however many match.
    const rows = await this.dataSource.query(
      `SELECT coupon_id, title, merchant_id, merchant_name, merchant_slug,
              coalesce((SELECT jsonb_object_agg(key, value->'title') FROM jsonb_each(texts)), '{}') AS titles FROM (
         SELECT coupon_id, title, merchant_id, merchant_name, merchant_slug, texts, popularity, ${search.rank} AS rank
         FROM coupon_listings WHERE expires_at > now() AND ${search.condition}
         LIMIT ${SEARCH_SUGGESTIONS.candidates}) candidates
       ORDER BY rank DESC, popularity DESC NULLS LAST, coupon_id DESC
       LIMIT ${SEARCH_SUGGESTIONS.perKind}`,
      parameters,
    );
    return rows.map((row: Record<string, never>) => ({
      id: row.coupon_id,
      title: row.title,
      titles: row.titles,
      merchant: { id: row.merchant_id, name: row.merchant_name, slug: row.merchant_slug },
    }));
  }
}

/** A word as a literal in a regular expression (words are letters and digits; this is belt and braces). */
function escapeRegex(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
