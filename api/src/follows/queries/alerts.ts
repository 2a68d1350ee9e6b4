import type { EntityManager } from 'typeorm';
import { liveCouponTitles } from '../../coupons/queries/coupon-texts.js';
import { shopperRecipients } from '../../identity/queries/mail-recipients.js';
import { recordedMailKeys } from '../../mail/queries/outgoing-mails.js';
import { holdersConsenting } from '../../privacy/queries/consents.js';
import { STORE_ALERTS } from '../../rules/follows.js';
import { storeIdentities } from '../../storefront/queries/store-identity.js';

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

/** A follower and store pair, the place a sweep has reached in (user, merchant) order. */
export interface AlertPair {
  userId: number;
  merchantId: number;
}

/** One batch of a sweep: the pairs to mail, and where the next batch starts (none: the sweep is done). */
export interface WaitingAlertsBatch {
  alerts: WaitingAlerts[];
  next: AlertPair | undefined;
}

/**
 * The next `limit` follower and store pairs after `after` (in user, merchant order) with alerts
 * waiting and no alert mail yet on `day`, one store's or every store's. Only those pairs' rows are
 * read and locked (others skip them), so two senders never take the same alerts and a sweep reads
 * each waiting row once, however many wait. Pairs already mailed that day are passed over. The
 * follower comes from identity, their store-alerts consent from privacy, the store's name from
 * storefront, the titles from coupons and whether a mail went from mail, each asked once per batch.
 * A follower without the consent gets no offers shown: their alerts are marked done, unmailed.
 */
export async function waitingAlerts(
  manager: EntityManager,
  day: string,
  merchantId: number | undefined,
  limit: number,
  after?: AlertPair,
): Promise<WaitingAlertsBatch> {
  const pairKey = (pair: AlertPair) => storeAlertMailKey(pair.userId, pair.merchantId, day);
  // Pairs mailed today are skipped here, before any row is locked; pages of `limit` pairs are read
  // until `limit` unmailed ones are found or none are left.
  const unmailed: AlertPair[] = [];
  let cursor = after;
  let more = true;
  while (more && unmailed.length < limit) {
    const page: AlertPair[] = await manager.query(
      `SELECT DISTINCT user_id AS "userId", merchant_id AS "merchantId" FROM store_alerts
       WHERE mailed_at IS NULL AND ($1::int IS NULL OR merchant_id = $1)
         AND ($2::int IS NULL OR (user_id, merchant_id) > ($2::int, $3::int))
       ORDER BY user_id, merchant_id LIMIT $4`,
      [merchantId ?? null, cursor?.userId ?? null, cursor?.merchantId ?? null, limit],
    );
    const mailed = await recordedMailKeys(manager, page.map(pairKey));
    let taken = 0;
    for (const pair of page) {
      if (unmailed.length === limit) break;
      taken += 1;
      cursor = pair;
      if (!mailed.has(pairKey(pair))) unmailed.push(pair);
    }
    // A short page read to its end leaves no pair after it.
    more = page.length === limit || taken < page.length;
  }
  const alerts: Array<AlertPair & { couponId: number }> =
    unmailed.length === 0
      ? []
      : await manager.query(
          `SELECT a.user_id AS "userId", a.merchant_id AS "merchantId", a.coupon_id AS "couponId"
           FROM store_alerts a JOIN unnest($1::int[], $2::int[]) AS p(user_id, merchant_id)
                ON a.user_id = p.user_id AND a.merchant_id = p.merchant_id
           WHERE a.mailed_at IS NULL
           ORDER BY a.user_id, a.merchant_id, a.created_at, a.coupon_id
           FOR UPDATE OF a SKIP LOCKED`,
          [unmailed.map((pair) => pair.userId), unmailed.map((pair) => pair.merchantId)],
        );
  const pairs = new Map<string, typeof alerts>();
  for (const alert of alerts) {
    const key = pairKey(alert);
    pairs.set(key, [...(pairs.get(key) ?? []), alert]);
  }
  const batch = [...pairs.values()];
  const userIds = [...new Set(batch.map(([first]) => first.userId))];
  const [followers, stores, consenting] = await Promise.all([
    shopperRecipients(manager, userIds),
    storeIdentities(
      manager,
      batch.map(([first]) => first.merchantId),
    ),
    holdersConsenting(manager, 'shopper', userIds, 'store_alerts'),
  ]);
  const titles = await liveCouponTitles(
    manager,
    batch.flatMap((pair) => {
      const follower = followers.get(pair[0].userId);
      if (!follower || !consenting.has(pair[0].userId) || !stores.get(pair[0].merchantId)?.isPublic)
        return [];
      return pair.map(({ couponId }) => ({ couponId, language: follower.language }));
    }),
  );
  const ready = batch.flatMap((pair) => {
    const { userId, merchantId } = pair[0];
    const follower = followers.get(userId);
    const store = stores.get(merchantId);
    if (!follower || !store) return [];
    // Without the follower's store-alerts consent nothing is shown: the alerts are dropped unmailed.
    const shown = consenting.has(userId) ? titles.get(follower.language) : undefined;
    return [
      {
        userId,
        merchantId,
        ...follower,
        slug: store.slug as string,
        storeName: store.name,
        couponIds: pair.map((alert) => alert.couponId),
        offers: pair.flatMap(({ couponId }) => {
          const title = store.isPublic ? shown?.get(couponId) : undefined;
          return title === undefined ? [] : [{ id: couponId, title }];
        }),
      },
    ];
  });
  return { alerts: ready, next: more ? cursor : undefined };
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
