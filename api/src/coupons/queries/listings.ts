import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { cashbackUpTo } from '../../cashback/queries/shown.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { mediaUrl } from '../../media/media.js';
import { COUPON_VOTES, type CouponSort, MARKET_TIME_ZONE } from '../../rules/coupons.js';
import type { Category, CouponCard } from './answers.js';
import { searchSql } from './search.js';

export type { CouponCard };

/** The share of votes that said the code worked, once there are enough to mean something. */
export const successRate = (votes: number, worked: number) =>
  votes >= COUPON_VOTES.minVotesForRate ? Math.round((100 * worked) / votes) : null;

export interface ListingQuery {
  sort: CouponSort | 'top';
  categoryIds?: number[];
  merchantId?: number;
  q?: string;
  page: number;
  perPage: number;
}

/**
 * Every order ends with the coupon id, so it is total: a page holds the same coupons every time
 * and paging never repeats or skips one. Each has an index in exactly this order (migration
 * 1764300000000-total-orders), which a test checks with EXPLAIN.
 */
export const LISTING_ORDER: Record<ListingQuery['sort'], string> = {
  popular: 'popularity DESC NULLS LAST, approved_at DESC, coupon_id DESC',
  newest: 'approved_at DESC, coupon_id DESC',
  az: 'lower(title) ASC, coupon_id ASC',
  // Coupons without a percentage or a value (deals) after those with them.
  best: 'percentage DESC NULLS LAST, discount_value DESC NULLS LAST, coupon_id ASC',
  expiring: 'expires_at ASC, coupon_id ASC',
  // Most recently confirmed to work (a shopper's "worked" vote, else the approval) first.
  verified: 'verified_at DESC, coupon_id DESC',
  // Paid placements first, then what shoppers reveal most.
  top: 'paid_slot DESC, popularity DESC NULLS LAST, approved_at DESC, coupon_id DESC',
};

/** The public coupon lists, read from the `coupon_listings` read model only. */
@Injectable()
export class CouponListings {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    /** The site's default cashback rate, which a store without a rate of its own pays. */
    private readonly environment: Environment,
  ) {}

  async find(query: ListingQuery): Promise<{ data: CouponCard[]; total: number }> {
    // A coupon past its expiry is never shown, even before the sweep has ended it.
    const conditions = ['expires_at > now()'];
    const parameters: unknown[] = [];
    const bind = (value: unknown) => {
      parameters.push(value);
      return `$${parameters.length}`;
    };
    if (query.categoryIds?.length) conditions.push(`category_ids && ${bind(query.categoryIds)}::int[]`);
    if (query.merchantId !== undefined) conditions.push(`merchant_id = ${bind(query.merchantId)}`);
    const search = query.q ? searchSql(query.q, bind) : undefined;
    if (query.q && !search) conditions.push('false'); // nothing searchable in it: nothing found
    if (search) conditions.push(search.condition);
    const where = conditions.join(' AND ');
    const filters = [...parameters];
    // Page and total apart: a window count would read every matching row for each page.
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query(
        `SELECT coupon_id, title, description, terms, merchant_id, merchant_name, merchant_slug, merchant_logo_id,
                merchant_url, image_id, percentage, discount_value, nullif(expires_at, 'infinity') AS expires_at,
                category_ids, votes, worked_votes, verified_at, has_code, exclusive, texts,
                CASE WHEN today = (now() AT TIME ZONE '${MARKET_TIME_ZONE}')::date THEN clicks_today ELSE 0 END AS used_today
         FROM coupon_listings WHERE ${where}
         ORDER BY ${search ? `${search.rank} DESC, ` : ''}${LISTING_ORDER[query.sort]}
         LIMIT ${bind(query.perPage)} OFFSET ${bind((query.page - 1) * query.perPage)}`,
        parameters,
      ),
      this.dataSource.query(`SELECT count(*)::int AS total FROM coupon_listings WHERE ${where}`, filters),
    ]);
    // The cashback of the page's coupons and stores in one statement, read now rather than kept in
    // the listing rows: a rate change then shows at once without rewriting every coupon's row.
    const cashback = await cashbackUpTo(
      this.dataSource,
      rows.map((row: { merchant_id: number }) => row.merchant_id),
      rows.map((row: { coupon_id: number }) => row.coupon_id),
      this.environment,
    );
    return {
      total,
      data: rows.map(
        (row: Record<string, never>): CouponCard => ({
          id: row.coupon_id,
          title: row.title,
          description: row.description,
          terms: row.terms,
          merchantId: row.merchant_id,
          merchantName: row.merchant_name,
          merchantUrl: row.merchant_url,
          merchant: {
            id: row.merchant_id,
            name: row.merchant_name,
            slug: row.merchant_slug,
            logoUrl: mediaUrl(row.merchant_logo_id),
          },
          imageUrl: mediaUrl(row.image_id),
          percentage: row.percentage,
          discountValue: row.discount_value,
          expiresAt: row.expires_at ? new Date(row.expires_at).toISOString() : null,
          hasCode: row.has_code,
          exclusive: row.exclusive,
          texts: row.texts,
          categoryIds: row.category_ids,
          votes: row.votes,
          successRate: successRate(row.votes, row.worked_votes),
          usedToday: row.used_today,
          verifiedAt: new Date(row.verified_at).toISOString(),
          cashback: cashback.coupon(row.coupon_id, row.merchant_id),
        }),
      ),
    };
  }

  /**
   * When the first listed coupon expires (ms since the epoch): a list read now holds until then.
   * Open-ended coupons ('infinity') never expire.
   */
  async nextExpiry(): Promise<number | undefined> {
    const [{ next_expiry }] = await this.dataSource.query(
      `SELECT extract(epoch FROM min(expires_at)) * 1000 AS next_expiry FROM coupon_listings
       WHERE expires_at > now() AND expires_at < 'infinity'`,
    );
    return next_expiry === null ? undefined : Number(next_expiry);
  }

  /** When the lists last gained a coupon: overall and per category id (for sitemaps). */
  async lastApprovals(): Promise<{ overall?: string; byCategory: Map<number, string> }> {
    const rows: Array<{ category_id: number; last: Date }> = await this.dataSource.query(
      `SELECT unnest(category_ids) AS category_id, max(approved_at) AS last
       FROM coupon_listings WHERE expires_at > now() GROUP BY 1`,
    );
    const byCategory = new Map(rows.map((row) => [row.category_id, new Date(row.last).toISOString()]));
    const overall = [...byCategory.values()].sort().at(-1);
    return { overall, byCategory };
  }

  async categories(): Promise<Category[]> {
    return this.dataSource.query('SELECT id, name FROM categories ORDER BY position, lower(name), id');
  }
}
