import type { EntityManager } from 'typeorm';
import { LIVE_COUPON_SQL } from '../../coupons/queries/coupon-status.js';
import { COUPON_TITLE_IN_SQL } from '../../coupons/queries/coupon-texts.js';
import { STORE_ALERTS } from '../../rules/follows.js';
import { PUBLIC_MERCHANT_SQL, STORE_JOIN, STORE_NAME_SQL } from '../../storefront/queries/store-identity.js';

/** The key of a follower's one alert mail of the day from a store (India's day, YYYY-MM-DD). */
export const storeAlertMailKey = (userId: number, merchantId: number, day: string) =>
  `store-alert:${userId}:${merchantId}:${day}`;

/** An alert for every follower of the store whose coupon went live (once per follower and coupon). */
export async function queueStoreAlerts(manager: EntityManager, merchantId: number, couponId: number) {
  await manager.query(
    `INSERT INTO store_alerts (user_id, coupon_id, merchant_id)
     SELECT user_id, $2, merchant_id FROM store_follows WHERE merchant_id = $1
     ON CONFLICT DO NOTHING`,
    [merchantId, couponId],
  );
}

/** The alerts of one follower and store to mail together, with what the mail shows. */
export interface WaitingAlerts {
  userId: number;
  merchantId: number;
  email: string;
  name: string;
  language: string;
  slug: string;
  storeName: string;
  couponIds: number[];
  /** The alerted coupons still live and shown, oldest alert first, titled in the follower's language. */
  offers: Array<{ id: number; title: string }>;
}

/**
 * Follower and store pairs with alerts waiting and no alert mail yet on `day`, one store's or
 * every store's. Rows are locked (others skip them), so two senders never take the same alerts.
 */
export async function waitingAlerts(
  manager: EntityManager,
  day: string,
  merchantId: number | undefined,
  limit: number,
): Promise<WaitingAlerts[]> {
  return manager.query(
    `WITH waiting AS (
       SELECT a.user_id, a.merchant_id, a.coupon_id, a.created_at FROM store_alerts a
       WHERE a.mailed_at IS NULL AND ($2::int IS NULL OR a.merchant_id = $2)
         AND NOT EXISTS (SELECT 1 FROM outgoing_mails o
                         WHERE o.idempotency_key = 'store-alert:' || a.user_id || ':' || a.merchant_id || ':' || $1)
       ORDER BY a.user_id, a.merchant_id
       FOR UPDATE SKIP LOCKED)
     SELECT w.user_id AS "userId", w.merchant_id AS "merchantId", u.email, u.user_name AS name, u.language,
            m.slug, ${STORE_NAME_SQL} AS "storeName",
            array_agg(w.coupon_id) AS "couponIds",
            coalesce(json_agg(json_build_object('id', c.id, 'title', ${COUPON_TITLE_IN_SQL('c', 'u.language')})
                              ORDER BY w.created_at, c.id)
                       FILTER (WHERE c.id IS NOT NULL), '[]') AS offers
     FROM waiting w
     JOIN users u ON u.id = w.user_id
     JOIN merchants m ON m.id = w.merchant_id ${STORE_JOIN}
     LEFT JOIN coupons c ON c.id = w.coupon_id AND ${LIVE_COUPON_SQL('c')}
                        AND ${PUBLIC_MERCHANT_SQL}
     GROUP BY 1, 2, 3, 4, 5, 6, 7
     ORDER BY 1, 2
     LIMIT $3`,
    [day, merchantId ?? null, limit],
  );
}

export async function markAlertsMailed(manager: EntityManager, userId: number, couponIds: number[]) {
  await manager.query(
    'UPDATE store_alerts SET mailed_at = now() WHERE user_id = $1 AND coupon_id = ANY($2::int[])',
    [userId, couponIds],
  );
}

/** Forgets alerts mailed long ago. */
export async function purgeMailedAlerts(manager: Pick<EntityManager, 'query'>): Promise<number> {
  const [, deleted] = await manager.query(
    `DELETE FROM store_alerts WHERE mailed_at < now() - make_interval(days => ${STORE_ALERTS.keepDays})`,
  );
  return deleted ?? 0;
}
