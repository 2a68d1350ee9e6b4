/**
 * SQL of the mails owed to shoppers about their earnings (`earning_notices`): a purchase tracked,
 * cashback confirmed. The workers note them as the events arrive and mail each shopper's due
 * ones in one digest, at most once a day.
 */
import type { EntityManager } from 'typeorm';
import { STORE_JOIN, STORE_NAME_SQL } from '../../storefront/queries/store-identity.js';

type Reader = Pick<EntityManager, 'query'>;

export type NoticeStep = 'tracked' | 'confirmed';

/** How long mailed notices are kept (what the timeline shows comes from the earning, not from them). */
const KEEP_MAILED_DAYS = 30;

/** The key of a shopper's one digest of the day (India's day, YYYY-MM-DD). */
export const earningUpdatesMailKey = (userId: number, day: string) => `earning-updates:${userId}:${day}`;

/**
 * Notes that the earning's step happened, owed to its shopper from `dueAt`: cashback only (a
 * referral bonus has its own mail), once per earning and step, so a redelivered event notes nothing.
 */
export async function noteEarningStep(
  manager: Reader,
  earningId: number,
  step: NoticeStep,
  dueAt: Date,
): Promise<void> {
  await manager.query(
    `INSERT INTO earning_notices (earning_id, step, user_id, due_at)
     SELECT id, $2, user_id, $3 FROM earnings WHERE id = $1 AND kind = 'cashback' AND user_id IS NOT NULL
     ON CONFLICT DO NOTHING`,
    [earningId, step, dueAt],
  );
}

/** A notice as the digest lists it, with its earning as it is now. */
export interface WaitingNotice {
  earningId: number;
  step: NoticeStep;
  state: string;
  storeId: number;
  storeName: string;
  purchaseAmountPaise: string;
  amountPaise: string;
  trackedAt: Date;
}

/** A shopper's notices to mail together. */
export interface WaitingNotices {
  userId: number;
  email: string;
  name: string;
  language: string;
  notices: WaitingNotice[];
}

/**
 * Shoppers with a notice due at `now` and no digest recorded on `day`, with every notice of theirs
 * waiting (due or not: a digest takes all there is), oldest first. The rows are locked and others
 * skip them, so two sweeps never take the same shopper's notices.
 */
export async function waitingNotices(
  manager: Reader,
  day: string,
  now: Date,
  limit: number,
): Promise<WaitingNotices[]> {
  return manager.query(
    `WITH due AS (
       SELECT DISTINCT n.user_id FROM earning_notices n
       WHERE n.mailed_at IS NULL AND n.due_at <= $2
         AND NOT EXISTS (SELECT 1 FROM outgoing_mails o WHERE o.idempotency_key = 'earning-updates:' || n.user_id || ':' || $1)
       ORDER BY n.user_id
       LIMIT $3),
     waiting AS (
       SELECT n.earning_id, n.step, n.user_id, n.noted_at FROM earning_notices n JOIN due USING (user_id)
       WHERE n.mailed_at IS NULL
       ORDER BY n.user_id, n.earning_id, n.step
       FOR UPDATE OF n SKIP LOCKED)
     SELECT w.user_id AS "userId", u.email, u.user_name AS name, u.language,
            json_agg(json_build_object(
              'earningId', e.id, 'step', w.step, 'state', e.state, 'storeId', m.id, 'storeName', ${STORE_NAME_SQL},
              'purchaseAmountPaise', e.purchase_amount_paise::text, 'amountPaise', e.amount_paise::text,
              'trackedAt', e.created_at)
              ORDER BY w.noted_at, e.id, w.step) AS notices
     FROM waiting w
     JOIN users u ON u.id = w.user_id
     JOIN earnings e ON e.id = w.earning_id
     JOIN merchants m ON m.id = e.merchant_id ${STORE_JOIN}
     GROUP BY 1, 2, 3, 4
     ORDER BY 1`,
    [day, now, limit],
  );
}

/** The shopper's notices of these earnings' steps are mailed (or dropped: the earning was cancelled). */
export async function markNoticesMailed(
  manager: Reader,
  userId: number,
  notices: ReadonlyArray<Pick<WaitingNotice, 'earningId' | 'step'>>,
): Promise<void> {
  await manager.query(
    `UPDATE earning_notices n SET mailed_at = now()
     FROM unnest($2::int[], $3::text[]) AS mailed(earning_id, step)
     WHERE n.user_id = $1 AND n.earning_id = mailed.earning_id AND n.step = mailed.step`,
    [userId, notices.map((notice) => notice.earningId), notices.map((notice) => notice.step)],
  );
}

/** Forgets notices mailed long ago. */
export async function purgeMailedNotices(manager: Reader): Promise<number> {
  const [, deleted] = await manager.query(
    `DELETE FROM earning_notices WHERE mailed_at < now() - make_interval(days => ${KEEP_MAILED_DAYS})`,
  );
  return deleted ?? 0;
}
