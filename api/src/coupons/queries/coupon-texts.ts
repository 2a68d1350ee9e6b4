import type { EntityManager } from 'typeorm';
import type { CouponTextLanguage, CouponTexts } from '../../rules/coupons.js';
import { LIVE_COUPON_SQL } from './coupon-status.js';

/**
 * SQL of `coupon_texts`: a coupon's title, description and terms in Hindi and Telugu beside the
 * English ones kept on the coupon. Read models and mails choose the reader's language with these.
 */

/** Changes of a coupon's texts: a language's text to set, or null to remove it. */
export type CouponTextChanges = Partial<Record<CouponTextLanguage, CouponTexts[CouponTextLanguage] | null>>;

/** Sets and removes the coupon's texts as `changes` says; languages left out keep theirs. */
export async function saveCouponTexts(
  manager: EntityManager,
  couponId: number,
  changes: CouponTextChanges,
): Promise<void> {
  for (const [language, text] of Object.entries(changes)) {
    if (text === undefined) continue;
    if (text === null) {
      await manager.query('DELETE FROM coupon_texts WHERE coupon_id = $1 AND language = $2', [
        couponId,
        language,
      ]);
      continue;
    }
    await manager.query(
      `INSERT INTO coupon_texts (coupon_id, language, title, description, terms) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (coupon_id, language) DO UPDATE SET
         title = EXCLUDED.title, description = EXCLUDED.description, terms = EXCLUDED.terms`,
      [couponId, language, text.title, text.description, text.terms],
    );
  }
}

/** The texts of each of the coupons, by coupon id (a coupon without any is absent). */
export async function couponTextsOf(
  reader: Pick<EntityManager, 'query'>,
  couponIds: number[],
): Promise<Map<number, CouponTexts>> {
  const rows: Array<{ couponId: number; texts: CouponTexts }> = await reader.query(
    `SELECT coupon_id AS "couponId", ${COUPON_TEXTS_SQL('coupon_id')} AS texts
     FROM (SELECT DISTINCT coupon_id FROM coupon_texts WHERE coupon_id = ANY($1::int[])) t`,
    [couponIds],
  );
  return new Map(rows.map((row) => [row.couponId, row.texts]));
}

/**
 * The coupons among these still live, each titled in the language asked for it (its English title
 * without one), in one statement: by language, then by coupon id. A mail lists what it announces
 * in its reader's language.
 */
export async function liveCouponTitles(
  reader: Pick<EntityManager, 'query'>,
  wanted: ReadonlyArray<{ couponId: number; language: string }>,
): Promise<Map<string, Map<number, string>>> {
  const titles = new Map<string, Map<number, string>>();
  if (wanted.length === 0) return titles;
  const rows: Array<{ couponId: number; language: string; title: string }> = await reader.query(
    `SELECT DISTINCT w.coupon_id AS "couponId", w.language, ${COUPON_TITLE_IN_SQL('c', 'w.language')} AS title
     FROM unnest($1::int[], $2::text[]) AS w(coupon_id, language)
     JOIN coupons c ON c.id = w.coupon_id AND ${LIVE_COUPON_SQL('c')}`,
    [wanted.map((one) => one.couponId), wanted.map((one) => one.language)],
  );
  for (const { couponId, language, title } of rows) {
    const inLanguage = titles.get(language) ?? new Map<number, string>();
    inLanguage.set(couponId, title);
    titles.set(language, inLanguage);
  }
  return titles;
}

/** SQL: the coupon's (`coupon`, the SQL of its id) texts as a JSON document `{hi: {title, ...}}`. */
export const COUPON_TEXTS_SQL = (coupon: string) =>
  `coalesce((SELECT jsonb_object_agg(language, jsonb_build_object('title', title, 'description', description,
                                                                  'terms', terms))
             FROM coupon_texts WHERE coupon_id = ${coupon}), '{}'::jsonb)`;

/** SQL: the coupon's title in `language` (SQL of a language code), its English title otherwise. */
const COUPON_TITLE_IN_SQL = (coupon: string, language: string) =>
  `coalesce((SELECT title FROM coupon_texts WHERE coupon_id = ${coupon}.id AND language = ${language}),
            ${coupon}.title)`;

/** SQL: every other language's title and description of a listing document's texts, for search. */
export const TRANSLATED_TITLES_SQL = (texts: string) =>
  `coalesce((SELECT string_agg(value->>'title', ' ') FROM jsonb_each(${texts})), '')`;
export const TRANSLATED_DESCRIPTIONS_SQL = (texts: string) =>
  `coalesce((SELECT string_agg(value->>'description', ' ') FROM jsonb_each(${texts})), '')`;
