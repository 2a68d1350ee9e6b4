/** SQL of payouts and of the balance they are paid from. */
import type { DataSource, EntityManager } from 'typeorm';
import { rupees } from '../../earnings/money.js';
import { confirmedEarningsPaise } from '../../earnings/queries/confirmed-earnings.js';
import { shopperRecipients } from '../../identity/queries/mail-recipients.js';
import { lockShopper } from '../../identity/queries/shopper-locks.js';
import type { ListRequest } from '../../infrastructure/http/react-admin.js';
import { maskAccountNumber, type PayoutMethod, type PayoutState } from '../../rules/payouts.js';
import type { AdminPayout, ShopperPayout } from './answers.js';

type Reader = Pick<DataSource, 'query'>;

/**
 * The payouts in the shopper's balance: on their way (requested or processing) and paid. Failed
 * payouts count nowhere, so their amount is back in the balance.
 */
const PAYOUTS_OF_BALANCE = `
  SELECT coalesce(sum(amount_paise) FILTER (WHERE state IN ('requested', 'processing')), 0)::text
           AS "inProgressPaise",
         coalesce(sum(amount_paise) FILTER (WHERE state = 'paid'), 0)::text AS "paidOutPaise"
  FROM payouts WHERE user_id = $1`;

/**
 * Takes the shopper's row lock that every change of the balance holds until its transaction ends:
 * payout requests and earnings leaving `confirmed`. Concurrent requests of one shopper then run one
 * after the other, each reading the balance the previous one left (a statement after the lock
 * sees what committed before it). `FOR NO KEY UPDATE` rather than `FOR UPDATE`: it excludes the
 * same lock but not the key-share locks that rows referring to the user take (sessions, votes).
 * Answers whether the shopper exists.
 */
export const lockShopperBalance = (manager: Pick<EntityManager, 'query'>, userId: number) =>
  lockShopper(manager, userId, 'FOR NO KEY UPDATE');

export interface Balance {
  confirmedPaise: number;
  inProgressPaise: number;
  paidOutPaise: number;
  /** What the shopper may still withdraw; never below zero while every change holds the lock. */
  availablePaise: number;
}

/**
 * A shopper's money in paise: confirmed earnings (cashback and referral bonuses, from the earnings
 * feature), payouts on their way and payouts paid.
 */
export async function balanceOf(manager: Pick<EntityManager, 'query'>, userId: number): Promise<Balance> {
  const confirmedPaise = await confirmedEarningsPaise(manager, userId);
  const [row] = await manager.query(PAYOUTS_OF_BALANCE, [userId]);
  const inProgressPaise = Number(row.inProgressPaise);
  const paidOutPaise = Number(row.paidOutPaise);
  return {
    confirmedPaise,
    inProgressPaise,
    paidOutPaise,
    availablePaise: confirmedPaise - inProgressPaise - paidOutPaise,
  };
}

/**
 * The balance as the shopper's page shows it, without the lock: its two reads (earnings from their
 * owner, then payouts) share one snapshot, so a payout and the earnings change committed with it are
 * seen together or not at all.
 */
export const shownBalanceOf = (dataSource: DataSource, userId: number): Promise<Balance> =>
  dataSource.transaction('REPEATABLE READ', (manager) => balanceOf(manager, userId));

/** The balance of a locked shopper; undefined when no such user exists. */
export async function lockedBalanceOf(manager: EntityManager, userId: number): Promise<Balance | undefined> {
  return (await lockShopperBalance(manager, userId)) ? balanceOf(manager, userId) : undefined;
}

/** The payout that spends a shopper's money up to a point, and where it stands. */
export interface CoveringPayout {
  id: number;
  state: 'requested' | 'processing' | 'paid';
  requestedAt: Date;
  paidAt: Date | null;
}

/**
 * The shopper's ($1) payout that spends the confirmed money up to `throughPaise` of it: payouts
 * spend confirmed earnings in order, the oldest payout (not failed) the earliest confirmed money,
 * so the first payout whose running total reaches that sum is the one that spent its last rupee.
 * Undefined while the payouts requested so far do not reach it.
 */
export async function payoutCovering(
  reader: Reader,
  userId: number,
  throughPaise: number,
): Promise<CoveringPayout | undefined> {
  const [row]: CoveringPayout[] = await reader.query(
    `SELECT id, state, requested_at AS "requestedAt", paid_at AS "paidAt" FROM (
       SELECT id, state, requested_at, paid_at,
              sum(amount_paise) OVER (ORDER BY requested_at, id) AS running
       FROM payouts WHERE user_id = $1 AND state <> 'failed') spent
     WHERE running >= $2 ORDER BY running, requested_at, id LIMIT 1`,
    [userId, throughPaise],
  );
  return row;
}

export interface PayoutRow {
  id: number;
  userId: number;
  userName: string;
  userEmail: string;
  amountPaise: string;
  method: PayoutMethod;
  upiId: string | null;
  accountNumber: string | null;
  ifsc: string | null;
  accountHolderName: string | null;
  state: PayoutState;
  bankReference: string | null;
  failureReason: string | null;
  requestedAt: Date;
  processingAt: Date | null;
  paidAt: Date | null;
  failedAt: Date | null;
}

/** A payout's columns; its shopper's name and address come from identity (see `withShoppers`). */
const PAYOUT_COLUMNS = `
  p.id, p.user_id AS "userId",
  p.amount_paise AS "amountPaise", p.method, p.upi_id AS "upiId", p.account_number AS "accountNumber",
  p.ifsc, p.account_holder_name AS "accountHolderName", p.state, p.bank_reference AS "bankReference",
  p.failure_reason AS "failureReason", p.requested_at AS "requestedAt", p.processing_at AS "processingAt",
  p.paid_at AS "paidAt", p.failed_at AS "failedAt"`;

const PAYOUTS_FROM = 'FROM payouts p';

type PayoutOwnRow = Omit<PayoutRow, 'userName' | 'userEmail'>;

/** The payouts with their shoppers' names and addresses, asked of identity in one statement. */
async function withShoppers(reader: Reader, rows: PayoutOwnRow[]): Promise<PayoutRow[]> {
  const shoppers = await shopperRecipients(reader, [...new Set(rows.map((row) => row.userId))]);
  return rows.flatMap((row) => {
    const shopper = shoppers.get(row.userId);
    return shopper ? [{ ...row, userName: shopper.name, userEmail: shopper.email }] : [];
  });
}

const PAYOUT_BY_ID = `SELECT ${PAYOUT_COLUMNS} ${PAYOUTS_FROM} WHERE p.id = $1`;

/** A shopper's payouts, newest first, a page at a time ($2 rows from $3). */
const SHOPPER_PAYOUTS = `
  SELECT ${PAYOUT_COLUMNS} ${PAYOUTS_FROM} WHERE p.user_id = $1
  ORDER BY p.requested_at DESC, p.id DESC LIMIT $2 OFFSET $3`;

const SHOPPER_PAYOUT_COUNT = 'SELECT count(*)::int AS total FROM payouts WHERE user_id = $1';

/** The admins' list: `$1` states (null: all), `$2` user, `$3` method. */
const ADMIN_PAYOUTS_WHERE = `
  WHERE ($1::text[] IS NULL OR p.state = ANY($1)) AND ($2::int IS NULL OR p.user_id = $2)
    AND ($3::text IS NULL OR p.method = $3)`;

export async function payoutById(reader: Reader, id: number): Promise<PayoutRow | undefined> {
  const [row] = await withShoppers(reader, await reader.query(PAYOUT_BY_ID, [id]));
  return row;
}

/** The payouts of the given ids, by id. */
export async function payoutsByIds(reader: Reader, ids: number[]): Promise<PayoutRow[]> {
  return withShoppers(
    reader,
    await reader.query(`SELECT ${PAYOUT_COLUMNS} ${PAYOUTS_FROM} WHERE p.id = ANY($1::int[]) ORDER BY p.id`, [
      ids,
    ]),
  );
}

/** A page of a shopper's payouts, newest first, and how many the shopper has in all. */
export async function shopperPayoutsPage(
  reader: Reader,
  userId: number,
  perPage: number,
  offset: number,
): Promise<{ rows: PayoutRow[]; total: number }> {
  const rows = await withShoppers(reader, await reader.query(SHOPPER_PAYOUTS, [userId, perPage, offset]));
  const [{ total }] = await reader.query(SHOPPER_PAYOUT_COUNT, [userId]);
  return { rows, total };
}

/** The columns the admins' list sorts by; the keys, in this order, are its sortable fields. */
const ADMIN_PAYOUT_SORT = {
  id: 'p.id',
  requestedAt: 'p.requested_at',
  amount: 'p.amount_paise',
  state: 'p.state',
  userId: 'p.user_id',
} as const;

export type AdminPayoutSort = keyof typeof ADMIN_PAYOUT_SORT;
export const ADMIN_PAYOUT_SORTS = Object.keys(ADMIN_PAYOUT_SORT) as AdminPayoutSort[];

/** The admins' filters, each null when not given: states, one shopper, one method. */
export interface AdminPayoutFilter {
  states: string[] | null;
  userId: number | null;
  method: PayoutMethod | null;
}

/** A page of the admins' payout list and the total of its filter. */
export async function adminPayoutsPage(
  reader: Reader,
  page: ListRequest<AdminPayoutSort>,
  filter: AdminPayoutFilter,
): Promise<{ rows: PayoutRow[]; total: number }> {
  const values = [filter.states, filter.userId, filter.method];
  const [{ total }] = await reader.query(
    `SELECT count(*)::int AS total ${PAYOUTS_FROM} ${ADMIN_PAYOUTS_WHERE}`,
    values,
  );
  // Ties broken by the id, so pages never repeat or skip a payout.
  const order = `${ADMIN_PAYOUT_SORT[page.sortField]} ${page.order}, p.id ${page.order}`;
  const rows = await withShoppers(
    reader,
    await reader.query(
      `SELECT ${PAYOUT_COLUMNS} ${PAYOUTS_FROM} ${ADMIN_PAYOUTS_WHERE} ORDER BY ${order}
         LIMIT ${page.limit} OFFSET ${page.offset}`,
      values,
    ),
  );
  return { rows, total };
}

/** Where the money goes, as any list shows it: the UPI ID, or the account's last digits and IFSC. */
export function destinationOf(row: Pick<PayoutRow, 'method' | 'upiId' | 'accountNumber' | 'ifsc'>): string {
  return row.method === 'upi'
    ? (row.upiId ?? '')
    : `${maskAccountNumber(row.accountNumber ?? '')} · ${row.ifsc ?? ''}`;
}

const isoOrNull = (date: Date | null) => (date === null ? null : new Date(date).toISOString());

/** A payout as its shopper sees it: the account number masked. */
export const shopperPayout = (row: PayoutRow): ShopperPayout => ({
  id: row.id,
  amount: rupees(row.amountPaise),
  method: row.method,
  destination: destinationOf(row),
  upiId: row.upiId,
  accountNumber: row.accountNumber === null ? null : maskAccountNumber(row.accountNumber),
  ifsc: row.ifsc,
  accountHolderName: row.accountHolderName,
  state: row.state,
  bankReference: row.bankReference,
  failureReason: row.failureReason,
  requestedAt: new Date(row.requestedAt).toISOString(),
  processingAt: isoOrNull(row.processingAt),
  paidAt: isoOrNull(row.paidAt),
  failedAt: isoOrNull(row.failedAt),
});

/** A payout as the admins' payout run needs it: whose, and the full account number to pay into. */
export const adminPayout = (row: PayoutRow): AdminPayout => ({
  ...shopperPayout(row),
  userId: row.userId,
  userName: row.userName,
  userEmail: row.userEmail,
  accountNumber: row.accountNumber,
});

/** How many of the shopper's payouts are still on their way (requested or processing). */
export async function openPayoutCount(reader: Reader, userId: number): Promise<number> {
  const [row] = await reader.query(
    "SELECT count(*)::int AS count FROM payouts WHERE user_id = $1 AND state IN ('requested', 'processing')",
    [userId],
  );
  return row.count;
}
