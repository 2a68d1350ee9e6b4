import type { EntityManager } from 'typeorm';
import { SEARCH_SUGGESTIONS } from '../../rules/coupons.js';
import { searchSql } from './search.js';

type Reader = Pick<EntityManager, 'query'>;

/** A coupon the search box offers, with its titles in other languages and its store. */
export interface CouponSuggestion {
  id: number;
  title: string;
  /** The title in Hindi and Telugu where it has one: the box shows the visitor's language. */
  titles: Partial<Record<'hi' | 'te', string>>;
  merchant: { id: number; name: string; slug: string };
}

/** The statement of the coupon suggestions for `text` and its parameters; undefined when it holds no word. */
function couponSuggestionsQuery(text: string): { query: string; parameters: unknown[] } | undefined {
  const parameters: unknown[] = [];
  const search = searchSql(text, (value) => {
    parameters.push(value);
    return `$${parameters.length}`;
  });
  if (!search) return undefined;
  // A short beginning matches a great part of the coupons: the best few are chosen among the
  // first matches the indexes give, so the time stays bounded however many match.
  const query = `SELECT coupon_id, title, merchant_id, merchant_name, merchant_slug,
            coalesce((SELECT jsonb_object_agg(key, value->'title') FROM jsonb_each(texts)), '{}') AS titles FROM (
       SELECT coupon_id, title, merchant_id, merchant_name, merchant_slug, texts, popularity, ${search.rank} AS rank
       FROM coupon_listings WHERE expires_at > now() AND ${search.condition}
       LIMIT ${SEARCH_SUGGESTIONS.candidates}) candidates
     ORDER BY rank DESC, popularity DESC NULLS LAST, coupon_id DESC
     LIMIT ${SEARCH_SUGGESTIONS.perKind}`;
  return { query, parameters };
}

/** The best matching live coupons, as the coupon search finds and ranks them. */
export async function couponSuggestions(reader: Reader, text: string): Promise<CouponSuggestion[]> {
  const statement = couponSuggestionsQuery(text);
  if (!statement) return [];
  const rows = await reader.query(statement.query, statement.parameters);
  return rows.map((row: Record<string, never>) => ({
    id: row.coupon_id,
    title: row.title,
    titles: row.titles,
    merchant: { id: row.merchant_id, name: row.merchant_name, slug: row.merchant_slug },
  }));
}

/**
 * Where the time of the coupon suggestions for `text` goes: the lines of the statement's plan,
 * run (EXPLAIN ANALYZE, which reads but changes nothing), for the search benchmark.
 */
export async function couponSuggestionsPlan(reader: Reader, text: string): Promise<string[]> {
  const statement = couponSuggestionsQuery(text);
  if (!statement) return [];
  const rows: Array<{ 'QUERY PLAN': string }> = await reader.query(
    `EXPLAIN (ANALYZE, COSTS OFF) ${statement.query}`,
    statement.parameters,
  );
  return rows.map((row) => row['QUERY PLAN']);
}

/** The shop front's categories, in the order it shows them. */
export function categoriesInShopOrder(reader: Reader): Promise<Array<{ id: number; name: string }>> {
  return reader.query('SELECT id, name FROM categories ORDER BY position, id');
}
