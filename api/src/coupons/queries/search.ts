/**
 * Search that forgives, in PostgreSQL alone (decision in docs/decisions.md):
 * - word forms: the `english` configuration stems ("serums" finds "serum"), the `simple` one keeps
 *   every word as written (Hindi, Telugu, brand names); both go in one `search` vector, title and
 *   store name weighted above description and category names;
 * - as one types: every word is a prefix (`lipst` finds "lipstick");
 * - small typos: a word of 4 letters or more that begins no known word is replaced by the known
 *   words closest to it (pg_trgm similarity over `search_words`, the words of every listed title and
 *   store name): `shampo` finds "shampoo". The vocabulary is small, so this stays fast however
 *   many coupons there are, and the coupons are then found by the full-text index alone.
 * A coupon is found when every word of the search is found in one of these ways; results are
 * ranked by the weighted match.
 */

/** Words of a search: letters (with their combining marks, as Hindi and Telugu need) and digits. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/**
 * Shorter words are beginnings being typed: they are matched as prefixes only, since a two- or
 * three-letter word is "close" to a great many words and the typo check would read most rows.
 */
export const TYPO_MIN_LENGTH = 4;
/** Known words a misspelt one may stand for. */
const TYPO_CORRECTIONS = 3;
/** Words looked at: more make the query no better and only slower. */
export const MAX_SEARCH_WORDS = 6;

export function searchWords(text: string): string[] {
  return [...new Set((text.toLowerCase().match(WORD) ?? []).slice(0, MAX_SEARCH_WORDS))];
}

/** The listing row's search vector from its texts (SQL expressions). */
export function searchVectorSql(
  title: string,
  store: string,
  description: string,
  categories: string,
): string {
  const main = `${title} || ' ' || ${store}`;
  const more = `${description} || ' ' || ${categories}`;
  return `setweight(to_tsvector('english', ${main}), 'A') || setweight(to_tsvector('simple', ${main}), 'A')
    || setweight(to_tsvector('english', ${more}), 'B') || setweight(to_tsvector('simple', ${more}), 'B')`;
}

/**
 * Adds the words of listing rows (`where`) to the vocabulary typos are corrected to: the words of
 * their titles (`texts`, SQL over the row: the titles in every language) and store names that are
 * long enough to mistype and not mere numbers.
 */
export const addSearchWordsSql = (
  where: string,
  texts = "title || ' ' || merchant_name",
) => `INSERT INTO search_words (word)
  SELECT DISTINCT word FROM coupon_listings,
    unnest(tsvector_to_array(to_tsvector('simple', ${texts}))) AS word
  WHERE ${where} AND char_length(word) >= ${TYPO_MIN_LENGTH} AND word !~ '^[0-9]+$'
  ON CONFLICT DO NOTHING`;

/** A coupon's category names, for its search vector (`coupon` is the SQL of its id). */
export const categoryNamesSql = (coupon: string) =>
  `coalesce((SELECT string_agg(g.name, ' ') FROM coupon_categories cc JOIN categories g ON g.id = cc.category_id
             WHERE cc.coupon_id = ${coupon}), '')`;

/**
 * The condition and the rank of a search over `coupon_listings`, each word bound as a parameter
 * through `bind`. Undefined when the text holds no word.
 */
export function searchSql(text: string, bind: (value: unknown) => string) {
  const words = searchWords(text);
  if (words.length === 0) return undefined;
  const queries = words.map((word) => {
    const p = bind(word);
    const prefix = `(to_tsquery('english', ${p} || ':*') || to_tsquery('simple', ${p} || ':*'))`;
    if ([...word].length < TYPO_MIN_LENGTH) return prefix;
    // Known words closest to one that begins none (evaluated once per query, not per row).
    const corrections = `(SELECT to_tsquery('simple', string_agg(word, ' | ')) FROM (
        SELECT word FROM search_words WHERE word % ${p}
          AND NOT EXISTS (SELECT 1 FROM search_words WHERE word >= ${p} AND word < ${p} || chr(1114111))
        ORDER BY similarity(word, ${p}) DESC, word LIMIT ${TYPO_CORRECTIONS}) closest)`;
    return `coalesce(${prefix} || ${corrections}, ${prefix})`;
  });
  const query = queries.join(' && ');
  return {
    condition: `search @@ (${query})`,
    rank: `ts_rank('{0.1, 0.2, 0.4, 1.0}', search, ${query})`,
  };
}
