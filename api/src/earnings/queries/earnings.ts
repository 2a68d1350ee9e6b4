/** SQL of earnings as their holders and the admins read them, and of the merchant a postback names. */

import type { DataSource } from 'typeorm';
import { couponStoreId } from '../../coupons/queries/coupon-records.js';
import { merchantTracking } from '../../identity/queries/merchant-tracking.js';
import { type ListRequest, sqlOrder } from '../../infrastructure/http/react-admin.js';
import type { CashbackState } from '../../rules/engagement.js';
import type { EarningKind } from './answers.js';

type Reader = Pick<DataSource, 'query'>;

/** An earning as stored: amounts in paise (`bigint`, so strings), the rate in basis points. */
export interface EarningRow {
  id: number;
  kind: EarningKind;
  userId: number | null;
  beneficiaryMerchantId: number | null;
  merchantId: number | null;
  couponId: number | null;
  purchaseReference: string | null;
  purchaseType: string | null;
  purchaseAmountPaise: string | null;
  rateBp: number | null;
  /** A flat rate's amount (then `rateBp` is null). */
  flatRatePaise: string | null;
  overCap: boolean;
  /** Waits in the claims queue for an admin's decision. */
  heldForReview: boolean;
  amountPaise: string;
  state: CashbackState;
  referredUserId: number | null;
  clickId: string | null;
  /** A network's purchase: the feed source it came through, and the network's commission. */
  networkSourceId: number | null;
  networkCommissionPaise: string | null;
  createdAt: Date;
  confirmedAt: Date | null;
  paidAt: Date | null;
  cancelledAt: Date | null;
  /** Why a network declined the purchase, when its postback said. */
  cancelReason: string | null;
}

const EARNING = `id, kind, user_id AS "userId", beneficiary_merchant_id AS "beneficiaryMerchantId",
                 merchant_id AS "merchantId", coupon_id AS "couponId", purchase_reference AS "purchaseReference",
                 purchase_type AS "purchaseType", purchase_amount_paise AS "purchaseAmountPaise", rate_bp AS "rateBp",
                 flat_rate_paise AS "flatRatePaise", over_cap AS "overCap", held_for_review AS "heldForReview",
                 amount_paise AS "amountPaise", state, referred_user_id AS "referredUserId",
                 click_id AS "clickId", network_source_id AS "networkSourceId",
                 network_commission_paise AS "networkCommissionPaise", created_at AS "createdAt", confirmed_at AS "confirmedAt", paid_at AS "paidAt",
                 cancelled_at AS "cancelledAt", cancel_reason AS "cancelReason"`;

export async function earningById(reader: Reader, id: number): Promise<EarningRow | undefined> {
  const [row]: EarningRow[] = await reader.query(`SELECT ${EARNING} FROM earnings WHERE id = $1`, [id]);
  return row;
}

/** Whose history: a shopper's cashback and bonuses, or a referring merchant's bonuses. */
export type EarningsHolder = 'shopper' | 'merchant';

const HOLDER_COLUMN: Record<EarningsHolder, string> = {
  shopper: 'user_id',
  merchant: 'beneficiary_merchant_id',
};

/** What a holder has in one state: the sum in paise (`bigint`, so a string) and how many entries. */
export interface EarningStateSum {
  state: string;
  paise: string;
  entries: number;
}

/**
 * A page of a holder's earnings, newest first, and the sums of all its earnings by state. A
 * purchase waiting in the claims queue is not the shopper's cashback yet: it is left out.
 */
export async function earningsHistory(
  reader: Reader,
  holder: EarningsHolder,
  id: number,
  perPage: number,
  offset: number,
): Promise<{ rows: EarningRow[]; sums: EarningStateSum[] }> {
  const column = HOLDER_COLUMN[holder];
  const rows: EarningRow[] = await reader.query(
    `SELECT ${EARNING} FROM earnings WHERE ${column} = $1 AND NOT held_for_review
     ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [id, perPage, offset],
  );
  const sums: EarningStateSum[] = await reader.query(
    `SELECT state, sum(amount_paise) AS paise, count(*)::int AS entries FROM earnings
     WHERE ${column} = $1 AND NOT held_for_review GROUP BY state`,
    [id],
  );
  return { rows, sums };
}

/** The columns the admins' cashback list sorts by; the keys, in this order, are its sortable fields. */
const CASHBACK_SORT = { id: 'id', createdAt: 'created_at', state: 'state', kind: 'kind' } as const;

export type CashbackSort = keyof typeof CASHBACK_SORT;
export const CASHBACK_SORTS = Object.keys(CASHBACK_SORT) as CashbackSort[];

/** The admins' filters, each null when not given. */
export interface CashbackFilter {
  state: string | null;
  kind: string | null;
  userId: number | null;
  merchantId: number | null;
}

/** A page of the admins' cashback list and the total of its filter. */
export async function cashbacksPage(
  reader: Reader,
  page: ListRequest<CashbackSort>,
  filter: CashbackFilter,
): Promise<{ rows: EarningRow[]; total: number }> {
  const values = [filter.state, filter.kind, filter.userId, filter.merchantId];
  const where = `WHERE ($1::text IS NULL OR state = $1) AND ($2::text IS NULL OR kind = $2)
                     AND ($3::int IS NULL OR user_id = $3) AND ($4::int IS NULL OR merchant_id = $4)`;
  const [{ total }] = await reader.query(`SELECT count(*)::int AS total FROM earnings ${where}`, values);
  const rows: EarningRow[] = await reader.query(
    `SELECT ${EARNING} FROM earnings ${where} ORDER BY ${sqlOrder(page, CASHBACK_SORT[page.sortField])}
       LIMIT ${page.limit} OFFSET ${page.offset}`,
    values,
  );
  return { rows, total };
}

/** The merchant whose secret signs a postback, and that secret (null until the merchant asks for one). */
export interface PostbackMerchant {
  id: number;
  secret: string | null;
}

/** The merchant of the coupon, or undefined when there is no such coupon. */
export async function couponsPostbackMerchant(
  reader: Reader,
  couponId: number,
): Promise<PostbackMerchant | undefined> {
  const storeId = await couponStoreId(reader, couponId);
  if (storeId === undefined) return undefined;
  const tracking = (await merchantTracking(reader, [storeId])).get(storeId);
  return tracking && { id: storeId, secret: tracking.postbackSecret };
}
