import type { EntityManager } from 'typeorm';
import { SEARCH_SUGGESTIONS } from '../../rules/coupons.js';

/** A store the search box offers: one with a public page. */
export interface StoreSuggestion {
  merchantId: number;
  name: string;
  slug: string;
  logoUrl: string | null;
}

/** Similar enough for a store's name to be offered for a word with a typo. */
const STORE_SIMILARITY = 0.5;

/**
 * Stores with a public page whose name has every word (`words`, lower case) as the start of one of
 * its words, or close to one of them; the closest to the first word first.
 */
export async function storesNamedLike(
  reader: Pick<EntityManager, 'query'>,
  words: readonly string[],
): Promise<StoreSuggestion[]> {
  const conditions = words.map(
    (_word, index) =>
      `(lower(document->>'storeName') ~ ('(^|[^[:alnum:]])' || $${index + 1}) OR word_similarity($${index + 1}, lower(document->>'storeName')) >= ${STORE_SIMILARITY})`,
  );
  const rows = await reader.query(
    `SELECT merchant_id, slug, document->>'storeName' AS name, document->>'logoUrl' AS logo_url
     FROM store_pages WHERE ${conditions.join(' AND ')}
     ORDER BY word_similarity($1, lower(document->>'storeName')) DESC, lower(document->>'storeName'), merchant_id
     LIMIT ${SEARCH_SUGGESTIONS.perKind}`,
    words.map(escapeRegex),
  );
  return rows.map((row: Record<string, never>) => ({
    merchantId: row.merchant_id,
    name: row.name,
    slug: row.slug,
    logoUrl: row.logo_url ?? null,
  }));
}

/** A word as a literal in a regular expression (words are letters and digits; this is belt and braces). */
function escapeRegex(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
