import type { EntityManager, FindOptionsWhere, Repository } from 'typeorm';
import { merchantsAsStores, merchantsAsTrackedStores } from '../../identity/queries/store-identities.js';
import { entityOrder, type ListRequest } from '../../infrastructure/http/react-admin.js';
import { mediaUrl } from '../../media/media.js';
import { COUPON_TEXT_FIELDS, COUPON_TEXT_LANGUAGES, type CouponTexts } from '../../rules/coupons.js';
import type { Coupon } from '../entities/coupon.entity.js';
import { COUPON_STATUS_SQL, LIVE_COUPON_SQL } from './coupon-status.js';
import { COUPON_TEXTS_SQL } from './coupon-texts.js';
import { successRate } from './listings.js';

/** A coupon as its merchant and the admins see it: everything, including the code. */
export interface CouponRecord {
  id: number;
  merchantId: number;
  merchantName: string;
  couponName: string;
  /** Null for a deal without a code. */
  couponCode: string | null;
  title: string;
  description: string;
  termsAndConditions: string;
  /** The texts in Hindi and Telugu, as the form's fields (COUPON_TEXT_FIELDS); null where none. */
  titleHi: string | null;
  descriptionHi: string | null;
  termsHi: string | null;
  titleTe: string | null;
  descriptionTe: string | null;
  termsTe: string | null;
  percentage: number | null;
  discountValue: number | null;
  /** Null for an open-ended coupon. */
  expiryDate: string | null;
  exclusive: boolean;
  requestedSlotId: number;
  requestedSlotName: string;
  slotId: number | null;
  merchantUrl: string | null;
  imageUrl: string | null;
  status: string;
  rejectionReason: string | null;
  submittedAt: string;
  approvedAt: string | null;
  categoryIds: number[];
  /** Reveals counted towards popularity. */
  clicks: number;
  /** Shoppers' "did this code work?" votes, and the share that said yes once there are enough. */
  votes: number;
  successRate: number | null;
}

/** Full records of the given coupons, in the order of `ids`. */
export async function couponRecords(manager: EntityManager, ids: number[]): Promise<CouponRecord[]> {
  if (ids.length === 0) return [];
  const rows = await manager.query(
    `SELECT c.*, ${COUPON_STATUS_SQL('c')} AS effective_status, s.name AS requested_slot_name, coalesce(k.clicks, 0) AS clicks,
            v.votes, v.worked_votes,
            coalesce((SELECT array_agg(category_id ORDER BY category_id) FROM coupon_categories WHERE coupon_id = c.id), '{}') AS category_ids,
            ${COUPON_TEXTS_SQL('c.id')} AS texts
     FROM coupons c
     JOIN slots s ON s.id = c.requested_slot_id
     LEFT JOIN coupon_clicks k ON k.coupon_id = c.id
     CROSS JOIN LATERAL (SELECT count(*)::int AS votes, count(*) FILTER (WHERE worked)::int AS worked_votes
                         FROM coupon_votes WHERE coupon_id = c.id) v
     WHERE c.id = ANY($1::int[])`,
    [ids],
  );
  const merchants = await merchantsAsStores(
    manager,
    rows.map((row: { merchant_id: number }) => row.merchant_id),
  );
  const byId = new Map<number, CouponRecord>(
    rows.map((row: Record<string, never>) => [
      row.id,
      {
        id: row.id,
        merchantId: row.merchant_id,
        // Every coupon has its merchant (a foreign key).
        merchantName: merchants.get(row.merchant_id)!.merchantName,
        couponName: row.coupon_name,
        couponCode: row.coupon_code,
        title: row.title,
        description: row.description,
        termsAndConditions: row.terms_and_conditions,
        ...textFields(row.texts),
        percentage: row.percentage,
        discountValue: row.discount_value,
        expiryDate: row.expiry_date ? new Date(row.expiry_date).toISOString() : null,
        exclusive: row.exclusive,
        requestedSlotId: row.requested_slot_id,
        requestedSlotName: row.requested_slot_name,
        slotId: row.slot_id,
        merchantUrl: row.merchant_url,
        imageUrl: mediaUrl(row.ad_image_id),
        status: row.effective_status,
        rejectionReason: row.rejection_reason,
        submittedAt: new Date(row.submitted_at).toISOString(),
        approvedAt: row.approved_at ? new Date(row.approved_at).toISOString() : null,
        categoryIds: row.category_ids,
        clicks: row.clicks,
        votes: row.votes,
        successRate: successRate(row.votes, row.worked_votes),
      },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A coupon's texts in other languages as the form's flat fields, null where there is none. */
function textFields(texts: CouponTexts) {
  const fields: Record<string, string | null> = {};
  for (const language of COUPON_TEXT_LANGUAGES) {
    const names = COUPON_TEXT_FIELDS[language];
    fields[names.title] = texts[language]?.title ?? null;
    fields[names.description] = texts[language]?.description ?? null;
    fields[names.terms] = texts[language]?.terms ?? null;
  }
  return fields as Pick<
    CouponRecord,
    'titleHi' | 'descriptionHi' | 'termsHi' | 'titleTe' | 'descriptionTe' | 'termsTe'
  >;
}

/**
 * One page of the coupons matching any of `where`, in the page's order, and their total. Sorted by
 * status, they are in the order of the status readers see (a live coupon past its date among the
 * expired ones), which the entity's stored column alone would not give.
 */
export function couponPage<F extends string>(
  coupons: Repository<Coupon>,
  where: FindOptionsWhere<Coupon>[],
  page: ListRequest<F>,
): Promise<[Coupon[], number]> {
  const byStatus = page.sortField === 'status';
  const query = coupons.createQueryBuilder('coupon').setFindOptions({
    where,
    skip: page.offset,
    take: page.limit,
    ...(!byStatus && { order: entityOrder(page) }),
  });
  if (byStatus) query.orderBy(COUPON_STATUS_SQL('coupon'), page.order).addOrderBy('coupon.id', page.order);
  return query.getManyAndCount();
}

/** A react-admin page of coupons: the full records in page order, and the total. */
export async function couponRecordsPage(
  manager: EntityManager,
  [coupons, total]: [Array<{ id: number }>, number],
): Promise<{ rows: CouponRecord[]; total: number }> {
  const rows = await couponRecords(
    manager,
    coupons.map((coupon) => coupon.id),
  );
  return { rows, total };
}

/**
 * A coupon shoppers may use now, with where it leads: its own URL, else its store's site, and the
 * sub-id parameter its store's tracking reads on a click-out.
 */
export interface UsableCoupon {
  couponId: number;
  merchantId: number;
  couponCode: string | null;
  url: string | null;
  subIdParam: string;
}

/**
 * The coupon while shoppers may use it: live, before its expiry date, of a store shown to shoppers
 * (identity's rule); undefined otherwise. The one rule of revealing a code and of following a
 * coupon to its store. Two statements: the coupon, then its merchant (shown or not, its site and
 * its tracking at once).
 */
export async function usableCoupon(
  reader: Pick<EntityManager, 'query'>,
  couponId: number,
): Promise<UsableCoupon | undefined> {
  const [coupon]: UsableCoupon[] = await reader.query(
    `SELECT c.id AS "couponId", c.merchant_id AS "merchantId", c.coupon_code AS "couponCode", c.merchant_url AS url
     FROM coupons c WHERE c.id = $1 AND ${LIVE_COUPON_SQL('c')}`,
    [couponId],
  );
  if (!coupon) return undefined;
  const merchant = (await merchantsAsTrackedStores(reader, [coupon.merchantId])).get(coupon.merchantId);
  if (!merchant?.isPublic) return undefined;
  return { ...coupon, url: coupon.url ?? merchant.siteUrl, subIdParam: merchant.subIdParam };
}

/** The store a coupon belongs to, or undefined when there is no such coupon. */
export async function couponStoreId(
  reader: Pick<EntityManager, 'query'>,
  couponId: number,
): Promise<number | undefined> {
  const [row] = await reader.query('SELECT merchant_id AS "storeId" FROM coupons WHERE id = $1', [couponId]);
  return row?.storeId;
}

/** Coupons' (English) titles by id. */
export async function couponTitles(
  reader: Pick<EntityManager, 'query'>,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows: Array<{ id: number; title: string }> = await reader.query(
    'SELECT id, title FROM coupons WHERE id = ANY($1::int[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.title]));
}
