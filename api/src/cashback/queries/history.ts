/** SQL of stores' cashback history and of coupons' own rates. */
import type { ListRequest } from '../../infrastructure/http/react-admin.js';
import {
  type CashbackChange,
  type CashbackChangeOrigin,
  type CashbackChangeScope,
  fromStoredRate,
  type StoredRate,
} from '../../rules/cashback.js';
import { type Reader, storedRateOf } from './rates.js';

export const HISTORY_SORTS = ['changedAt', 'id'] as const;

interface HistoryRaw {
  id: string;
  storeId: number;
  scope: CashbackChangeScope;
  categoryName: string | null;
  couponId: number | null;
  kind: 'percent' | 'flat' | null;
  value: string | null;
  changes: CashbackChange['changes'];
  origin: CashbackChangeOrigin;
  adminId: number | null;
  proposalId: number | null;
  note: string | null;
  changedAt: Date;
}

/** A page of history entries, newest first by default; filters (null: any): store, scope, coupon. */
export async function historyPage(
  reader: Reader,
  page: ListRequest<(typeof HISTORY_SORTS)[number]>,
  filter: { storeId: number | null; scope: string | null; couponId: number | null },
): Promise<{ rows: Omit<CashbackChange, 'adminName'>[]; total: number }> {
  const where = `WHERE ($1::int IS NULL OR merchant_id = $1) AND ($2::text IS NULL OR scope = $2)
    AND ($3::int IS NULL OR coupon_id = $3)`;
  const parameters = [filter.storeId, filter.scope, filter.couponId];
  const [{ total }] = await reader.query(
    `SELECT count(*)::int AS total FROM cashback_changes ${where}`,
    parameters,
  );
  const order = page.sortField === 'id' ? 'id' : 'changed_at';
  const rows: HistoryRaw[] = await reader.query(
    `SELECT id, merchant_id AS "storeId", scope, category_name AS "categoryName", coupon_id AS "couponId",
            rate_kind AS kind, rate_value AS value, changes, origin, admin_id AS "adminId",
            proposal_id AS "proposalId", note, changed_at AS "changedAt"
     FROM cashback_changes ${where}
     ORDER BY ${order} ${page.order}, id ${page.order} OFFSET $4 LIMIT $5`,
    [...parameters, page.offset, page.limit],
  );
  return {
    rows: rows.map((row) => {
      const rate = storedRateOf(row);
      return {
        id: Number(row.id),
        storeId: row.storeId,
        scope: row.scope,
        categoryName: row.categoryName,
        couponId: row.couponId,
        rate: row.scope === 'terms' || rate === null ? null : fromStoredRate(rate),
        changes: row.changes,
        origin: row.origin,
        adminId: row.adminId,
        proposalId: row.proposalId,
        note: row.note,
        changedAt: new Date(row.changedAt).toISOString(),
      };
    }),
    total,
  };
}

/** Coupons with a rate of their own (filters, null: any: the store, the coupons' ids). */
export async function couponRatesPage(
  reader: Reader,
  offset: number,
  limit: number,
  filter: { storeId: number | null; ids: number[] | null },
): Promise<{ rows: Array<{ id: number; storeId: number; rate: StoredRate }>; total: number }> {
  const where = 'WHERE ($1::int IS NULL OR merchant_id = $1) AND ($2::int[] IS NULL OR coupon_id = ANY($2))';
  const parameters = [filter.storeId, filter.ids];
  const [{ total }] = await reader.query(
    `SELECT count(*)::int AS total FROM coupon_cashback ${where}`,
    parameters,
  );
  const rows = await reader.query(
    `SELECT coupon_id AS id, merchant_id AS "storeId", rate_kind AS kind, rate_value AS value
     FROM coupon_cashback ${where} ORDER BY coupon_id OFFSET $3 LIMIT $4`,
    [...parameters, offset, limit],
  );
  return {
    rows: rows.map((row: { id: number; storeId: number; kind: 'percent' | 'flat'; value: string }) => ({
      id: row.id,
      storeId: row.storeId,
      rate: storedRateOf(row)!,
    })),
    total,
  };
}
