/** SQL of click-outs, the clicks a postback names, the partitions and tracking settings. */
import type { EntityManager } from 'typeorm';
import { usableCoupon } from '../../coupons/queries/coupon-records.js';
import { merchantTracking } from '../../identity/queries/merchant-tracking.js';
import type { TrackingSettings } from '../../rules/clicks.js';
import { clickTimeOf } from '../click-ids.js';

/** A coupon a visitor may follow to its store, and where to: the same rule as revealing its code. */
export interface ClickOutTargetRow {
  couponId: number;
  merchantId: number;
  url: string | null;
  subIdParam: string;
}

/**
 * The coupon when it is live and shown (not pending, rejected, withdrawn or past its expiry date;
 * its merchant confirmed and not hidden), with the coupon's own URL or else the merchant's, and
 * the sub-id parameter of the merchant's tracking.
 */
export async function clickOutTarget(
  manager: Pick<EntityManager, 'query'>,
  couponId: number,
): Promise<ClickOutTargetRow | undefined> {
  // The coupon, then its merchant once: whether its store is shown, its site and its tracking.
  const coupon = await usableCoupon(manager, couponId);
  return (
    coupon && { couponId, merchantId: coupon.merchantId, url: coupon.url, subIdParam: coupon.subIdParam }
  );
}

export const INSERT_CLICK = `
  INSERT INTO clicks (id, coupon_id, merchant_id, user_id, clicked_at, client_address_key)
  VALUES ($1, $2, $3, $4, $5, $6)`;

/** A click as a postback needs it: who clicked, on what, when, and its merchant's settings. */
export interface ReportedClickRow {
  id: string;
  couponId: number;
  merchantId: number;
  userId: number | null;
  clickedAt: Date;
  secret: string | null;
  cookieWindowDays: number;
}

/**
 * The click of this id, or undefined. The id carries its time: naming both reads the primary
 * key of one month's partition.
 */
export async function findClick(manager: EntityManager, id: unknown): Promise<ReportedClickRow | undefined> {
  const at = clickTimeOf(id);
  if (!at) return undefined;
  const [row]: Array<Omit<ReportedClickRow, 'secret' | 'cookieWindowDays'>> = await manager.query(
    `SELECT k.id, k.coupon_id AS "couponId", k.merchant_id AS "merchantId", k.user_id AS "userId",
            k.clicked_at AS "clickedAt"
     FROM clicks k WHERE k.id = $1 AND k.clicked_at = $2`,
    [id, at],
  );
  if (!row) return undefined;
  // The merchant's postback secret and cookie window are its account's, as they are now.
  const tracking = (await merchantTracking(manager, [row.merchantId])).get(row.merchantId);
  return tracking && { ...row, secret: tracking.postbackSecret, cookieWindowDays: tracking.cookieWindowDays };
}

/** A shopper's click-out as a missing-cashback claim reads it. */
export interface ShopperClickRow {
  id: string;
  couponId: number;
  merchantId: number;
  clickedAt: Date;
  /** See `clientAddressKey`; null for clicks recorded before it was kept. */
  clientAddressKey: string | null;
}

const SHOPPER_CLICK = `
  SELECT k.id, k.coupon_id AS "couponId", k.merchant_id AS "merchantId", k.clicked_at AS "clickedAt",
         k.client_address_key AS "clientAddressKey"
  FROM clicks k`;

/** The shopper's click of this id, or undefined (another's click, or none: the same answer). */
export async function shopperClick(
  reader: Pick<EntityManager, 'query'>,
  userId: number,
  id: unknown,
): Promise<ShopperClickRow | undefined> {
  const at = clickTimeOf(id);
  if (!at) return undefined;
  const [row]: ShopperClickRow[] = await reader.query(
    `${SHOPPER_CLICK} WHERE k.id = $1 AND k.clicked_at = $2 AND k.user_id = $3`,
    [id, at, userId],
  );
  return row;
}

/** The shopper's click-outs between two moments, newest first (at most `limit`). */
export async function shopperClicks(
  reader: Pick<EntityManager, 'query'>,
  userId: number,
  from: Date,
  until: Date,
  limit: number,
): Promise<ShopperClickRow[]> {
  return reader.query(
    `${SHOPPER_CLICK} WHERE k.user_id = $1 AND k.clicked_at >= $2 AND k.clicked_at <= $3
     ORDER BY k.clicked_at DESC LIMIT $4`,
    [userId, from, until, limit],
  );
}

/** The clicks of these ids as the claims queue shows them beside each claim. */
export async function clicksByIds(
  reader: Pick<EntityManager, 'query'>,
  ids: readonly string[],
): Promise<Map<string, ShopperClickRow>> {
  const times = ids.map(clickTimeOf);
  if (ids.length === 0) return new Map();
  const rows: ShopperClickRow[] = await reader.query(
    `${SHOPPER_CLICK} JOIN unnest($1::text[], $2::timestamptz[]) AS wanted(id, at)
       ON wanted.id = k.id AND wanted.at = k.clicked_at`,
    [ids, times],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Makes the partitions of the month of `at` and of the next month, when missing (see the
 * migration's `ensure_click_partition`, which also moves their clicks out of the default
 * partition). Answers the partitions made.
 */
export async function ensureClickPartitions(manager: EntityManager, at: Date): Promise<string[]> {
  const [row]: Array<{ current: string | null; next: string | null }> = await manager.query(
    `SELECT ensure_click_partition($1) AS current,
            ensure_click_partition($1::timestamptz + interval '1 month') AS next`,
    [at],
  );
  return [row!.current, row!.next].filter((name): name is string => name !== null);
}

/** The merchant's sub-id parameter and cookie window. */
export async function trackingSettings(
  reader: Pick<EntityManager, 'query'>,
  merchantId: number,
): Promise<TrackingSettings> {
  const tracking = (await merchantTracking(reader, [merchantId])).get(merchantId);
  return (tracking && { subIdParam: tracking.subIdParam, cookieWindowDays: tracking.cookieWindowDays })!;
}
