/**
 * SQL of the mails owed to shoppers about their earnings (`earning_notices`): a purchase tracked,
 * cashback confirmed. The workers note them as the events arrive and mail each shopper's due
 * ones in one digest, at most once a day.
 */
import type { EntityManager } from 'typeorm';
import { shopperRecipients } from '../../identity/queries/mail-recipients.js';
import { recordedMailKeys } from '../../mail/queries/outgoing-mails.js';
import { storeNames } from '../../storefront/queries/store-identity.js';

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
 * skip them, so two sweeps never take the same shopper's notices. The shoppers' addresses and the
 * stores' names come from their owners, one statement each for the whole batch.
 */
export async function waitingNotices(
  manager: Reader,
  day: string,
  now: Date,
  limit: number,
): Promise<WaitingNotices[]> {
  const due = await shoppersDue(manager, day, now, limit);
  if (due.length === 0) return [];
  const rows: Array<Omit<WaitingNotice, 'storeName'> & { userId: number }> = await manager.query(
    `WITH waiting AS (
       SELECT n.earning_id, n.step, n.user_id, n.noted_at FROM earning_notices n
       WHERE n.user_id = ANY($1::int[]) AND n.mailed_at IS NULL
       ORDER BY n.user_id, n.earning_id, n.step
       FOR UPDATE OF n SKIP LOCKED)
     SELECT w.user_id AS "userId", e.id AS "earningId", w.step, e.state, e.merchant_id AS "storeId",
            e.purchase_amount_paise::text AS "purchaseAmountPaise", e.amount_paise::text AS "amountPaise",
            e.created_at AS "trackedAt"
     FROM waiting w JOIN earnings e ON e.id = w.earning_id
     ORDER BY w.user_id, w.noted_at, e.id, w.step`,
    [due],
  );
  const [shoppers, stores] = await Promise.all([
    shopperRecipients(manager, [...new Set(rows.map((row) => row.userId))]),
    storeNames(manager, [...new Set(rows.map((row) => row.storeId))]),
  ]);
  const digests = new Map<number, WaitingNotices>();
  for (const { userId, ...notice } of rows) {
    const shopper = shoppers.get(userId);
    const store = stores.get(notice.storeId);
    if (!shopper || !store) continue;
    let digest = digests.get(userId);
    if (!digest) {
      digest = { userId, ...shopper, notices: [] };
      digests.set(userId, digest);
    }
    digest.notices.push({ ...notice, storeName: store.name });
  }
  return [...digests.values()];
}

/**
 * The first `limit` shoppers (by id) with a notice due at `now` and no digest recorded on `day`.
 * Whether a digest is recorded is the mail store's to say: candidates are read a page at a time
 * and those already mailed today are passed over.
 */
async function shoppersDue(manager: Reader, day: string, now: Date, limit: number): Promise<number[]> {
  const due: number[] = [];
  let after = 0;
  for (;;) {
    const candidates: Array<{ userId: number }> = await manager.query(
      `SELECT DISTINCT user_id AS "userId" FROM earning_notices
       WHERE mailed_at IS NULL AND due_at <= $1 AND user_id > $2
       ORDER BY user_id LIMIT $3`,
      [now, after, limit],
    );
    const mailed = await recordedMailKeys(
      manager,
      candidates.map(({ userId }) => earningUpdatesMailKey(userId, day)),
    );
    for (const { userId } of candidates) {
      if (mailed.has(earningUpdatesMailKey(userId, day))) continue;
      due.push(userId);
      if (due.length === limit) return due;
    }
    if (candidates.length < limit) return due;
    after = candidates[candidates.length - 1].userId;
  }
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
