/** SQL of missing-cashback claims and the held purchases waiting beside them in the admins' queue. */
import type { EntityManager } from 'typeorm';
import type { ListRequest } from '../../infrastructure/http/react-admin.js';
import type { ClaimKind, ClaimState } from '../../rules/claims.js';

type Reader = Pick<EntityManager, 'query'>;

/** An item of the queue as stored; the amount in paise (`bigint`, so a string). */
export interface ClaimRow {
  id: number;
  kind: ClaimKind;
  state: ClaimState;
  userId: number;
  merchantId: number;
  couponId: number | null;
  clickId: string | null;
  clickedAt: Date | null;
  sameAddress: boolean | null;
  orderId: string;
  /** YYYY-MM-DD. */
  orderDate: string;
  amountPaise: string;
  invoiceId: string | null;
  earningId: number | null;
  filedAt: Date;
  answeredAt: Date | null;
  reason: string | null;
}

const COLUMNS = `id, kind, state, user_id AS "userId", merchant_id AS "merchantId", coupon_id AS "couponId",
  click_id AS "clickId", clicked_at AS "clickedAt", same_address AS "sameAddress", order_id AS "orderId",
  to_char(order_date, 'YYYY-MM-DD') AS "orderDate", amount_paise AS "amountPaise", invoice_id AS "invoiceId",
  earning_id AS "earningId", filed_at AS "filedAt", answered_at AS "answeredAt", reason`;

export interface NewClaim {
  userId: number;
  merchantId: number;
  couponId: number;
  clickId: string;
  clickedAt: Date;
  sameAddress: boolean | null;
  orderId: string;
  orderDate: string;
  amountPaise: number;
  invoiceId: string | null;
}

/**
 * Inserts a claim; undefined when its click or its order id at the store is claimed already (a
 * concurrent filing took it), with which of the two.
 */
export async function insertClaim(
  manager: Reader,
  claim: NewClaim,
): Promise<{ id: number } | { taken: 'click' | 'order' }> {
  try {
    const [row] = await manager.query(
      `INSERT INTO missing_cashback_claims (kind, user_id, merchant_id, coupon_id, click_id, clicked_at,
                                            same_address, order_id, order_date, amount_paise, invoice_id)
       VALUES ('claim', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [
        claim.userId,
        claim.merchantId,
        claim.couponId,
        claim.clickId,
        claim.clickedAt,
        claim.sameAddress,
        claim.orderId,
        claim.orderDate,
        claim.amountPaise,
        claim.invoiceId,
      ],
    );
    return { id: row.id as number };
  } catch (error) {
    const constraint = (error as { constraint?: string }).constraint;
    if (constraint === 'missing_cashback_claims_click') return { taken: 'click' };
    if (constraint === 'missing_cashback_claims_order') return { taken: 'order' };
    throw error;
  }
}

/** Takes the shopper's turn at filing: one filing at a time, so the open-claims limit holds. */
export async function lockShopperClaims(manager: Reader, userId: number): Promise<void> {
  await manager.query("SELECT pg_advisory_xact_lock(hashtext('missing-cashback-claims'), $1)", [userId]);
}

export async function openClaimCount(reader: Reader, userId: number): Promise<number> {
  const [{ count }] = await reader.query(
    "SELECT count(*)::int AS count FROM missing_cashback_claims WHERE user_id = $1 AND kind = 'claim' AND state = 'open'",
    [userId],
  );
  return count;
}

/** Which of these clicks the shopper claimed already. */
export async function claimedClicks(reader: Reader, clickIds: readonly string[]): Promise<Set<string>> {
  if (clickIds.length === 0) return new Set();
  const rows: Array<{ clickId: string }> = await reader.query(
    'SELECT click_id AS "clickId" FROM missing_cashback_claims WHERE kind = \'claim\' AND click_id = ANY($1::text[])',
    [clickIds],
  );
  return new Set(rows.map((row) => row.clickId));
}

/** Whether the order id (any case) is claimed at the store. */
export async function orderClaimed(reader: Reader, merchantId: number, orderId: string): Promise<boolean> {
  const rows = await reader.query(
    "SELECT 1 FROM missing_cashback_claims WHERE kind = 'claim' AND merchant_id = $1 AND lower(order_id) = lower($2)",
    [merchantId, orderId],
  );
  return rows.length > 0;
}

export async function claimById(
  reader: Reader,
  id: number,
  { lock = false } = {},
): Promise<ClaimRow | undefined> {
  const [row]: ClaimRow[] = await reader.query(
    `SELECT ${COLUMNS} FROM missing_cashback_claims WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return row;
}

export async function answerClaim(
  manager: Reader,
  id: number,
  answer: {
    state: 'approved' | 'rejected';
    adminId: number;
    reason: string | null;
    earningId: number | null;
  },
): Promise<void> {
  await manager.query(
    `UPDATE missing_cashback_claims
     SET state = $2, answered_at = now(), answered_by_admin_id = $3, reason = $4, earning_id = coalesce($5, earning_id)
     WHERE id = $1`,
    [id, answer.state, answer.adminId, answer.reason, answer.earningId],
  );
}

/** The shopper's claims and held purchases, newest first. */
export async function shopperClaims(reader: Reader, userId: number, limit: number): Promise<ClaimRow[]> {
  return reader.query(
    `SELECT ${COLUMNS} FROM missing_cashback_claims WHERE user_id = $1 ORDER BY filed_at DESC, id DESC LIMIT $2`,
    [userId, limit],
  );
}

export const CLAIM_SORTS = ['id', 'filedAt', 'state', 'kind'] as const;
const SORT_COLUMNS: Record<(typeof CLAIM_SORTS)[number], string> = {
  id: 'id',
  filedAt: 'filed_at',
  state: 'state',
  kind: 'kind',
};

/** A page of the queue and the total of its filter (each part null: any). */
export async function claimsPage(
  reader: Reader,
  page: ListRequest<(typeof CLAIM_SORTS)[number]>,
  filter: { state: string | null; kind: string | null; userId: number | null; storeId: number | null },
): Promise<{ rows: ClaimRow[]; total: number }> {
  const where = `WHERE ($1::text IS NULL OR state = $1) AND ($2::text IS NULL OR kind = $2)
    AND ($3::int IS NULL OR user_id = $3) AND ($4::int IS NULL OR merchant_id = $4)`;
  const parameters = [filter.state, filter.kind, filter.userId, filter.storeId];
  const [{ total }] = await reader.query(
    `SELECT count(*)::int AS total FROM missing_cashback_claims ${where}`,
    parameters,
  );
  const rows: ClaimRow[] = await reader.query(
    `SELECT ${COLUMNS} FROM missing_cashback_claims ${where}
     ORDER BY ${SORT_COLUMNS[page.sortField]} ${page.order}, id ${page.order} OFFSET $5 LIMIT $6`,
    [...parameters, page.offset, page.limit],
  );
  return { rows, total };
}
