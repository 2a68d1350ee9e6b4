/** The claims' answers, put together from the queue's rows and what other features say of them. */
import type { EntityManager } from 'typeorm';
import { storeCashbackStates } from '../../cashback/queries/rates.js';
import { clicksByIds, shopperClicks } from '../../clicks/queries/clicks.js';
import { couponTitles } from '../../coupons/queries/coupon-records.js';
import { cashbackOfEarnings, trackedClicks } from '../../earnings/queries/purchases.js';
import { shopperNames } from '../../identity/queries/profiles.js';
import type { Environment } from '../../infrastructure/config/environment.js';
import { CASHBACK_LIMITS } from '../../rules/cashback.js';
import { type AdminClaim, CLAIM_RULES, type ClaimableClick, type ShopperClaim } from '../../rules/claims.js';
import { paiseToRupees } from '../../rules/money.js';
import { storeNames } from '../../storefront/queries/store-identity.js';
import { type ClaimRow, claimById, claimedClicks, shopperClaims } from './claims.js';

type Reader = Pick<EntityManager, 'query'>;

const DAY_MS = 86_400_000;
/** A shopper's claims shown at once: the open ones are at most a handful, the rest history. */
const SHOPPER_CLAIMS_SHOWN = 100;
/** Click-outs offered for a claim at once, newest first. */
const CLAIMABLE_CLICKS_SHOWN = 50;

export interface ClaimAnswerSettings {
  answerDays: number;
}

export const claimAnswerSettings = (
  environment: Pick<Environment, 'CLAIM_ANSWER_DAYS'>,
): ClaimAnswerSettings => ({
  answerDays: environment.CLAIM_ANSWER_DAYS,
});

const iso = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());
const expectedBy = (row: ClaimRow, settings: ClaimAnswerSettings) =>
  new Date(new Date(row.filedAt).getTime() + settings.answerDays * DAY_MS).toISOString();
const invoiceUrl = (row: ClaimRow) => (row.invoiceId ? `/api/claim-invoices/${row.id}` : null);

async function namesOf(reader: Reader, rows: readonly ClaimRow[]) {
  const [stores, coupons] = await Promise.all([
    storeNames(reader, [...new Set(rows.map((row) => row.merchantId))]),
    couponTitles(reader, [...new Set(rows.flatMap((row) => (row.couponId === null ? [] : [row.couponId])))]),
  ]);
  return { stores, coupons };
}

export async function shopperClaimAnswers(
  reader: Reader,
  userId: number,
  settings: ClaimAnswerSettings,
): Promise<ShopperClaim[]> {
  const rows = await shopperClaims(reader, userId, SHOPPER_CLAIMS_SHOWN);
  const { stores, coupons } = await namesOf(reader, rows);
  const cashback = await cashbackOfEarnings(
    reader,
    rows.flatMap((row) => (row.state === 'approved' && row.earningId !== null ? [row.earningId] : [])),
  );
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    state: row.state,
    storeId: row.merchantId,
    storeName: stores.get(row.merchantId)?.name ?? '',
    couponTitle: row.couponId === null ? null : (coupons.get(row.couponId) ?? null),
    clickedAt: iso(row.clickedAt),
    orderId: row.orderId,
    orderDate: row.orderDate,
    amount: paiseToRupees(Number(row.amountPaise)),
    invoiceUrl: invoiceUrl(row),
    filedAt: iso(row.filedAt)!,
    expectedBy: expectedBy(row, settings),
    answeredAt: iso(row.answeredAt),
    reason: row.reason,
    cashback:
      row.earningId !== null && cashback.has(row.earningId)
        ? paiseToRupees(cashback.get(row.earningId)!)
        : null,
  }));
}

/**
 * The shopper's click-outs a claim may be filed for now: at least a day old, within their store's
 * claim window, with no purchase tracked and no claim filed.
 */
export async function claimableClicks(reader: Reader, userId: number): Promise<ClaimableClick[]> {
  const now = Date.now();
  const clicks = await shopperClicks(
    reader,
    userId,
    new Date(now - CASHBACK_LIMITS.claimWindowDays.max * DAY_MS),
    new Date(now - CLAIM_RULES.minAgeDays * DAY_MS),
    CLAIMABLE_CLICKS_SHOWN * 4,
  );
  const ids = clicks.map((click) => click.id);
  const [tracked, claimed, windows] = await Promise.all([
    trackedClicks(reader, ids),
    claimedClicks(reader, ids),
    storeCashbackStates(reader, [...new Set(clicks.map((click) => click.merchantId))]),
  ]);
  const open = clicks
    .map((click) => ({
      click,
      until: new Date(click.clickedAt).getTime() + windows.get(click.merchantId)!.claimWindowDays * DAY_MS,
    }))
    .filter(({ click, until }) => until >= now && !tracked.has(click.id) && !claimed.has(click.id))
    .slice(0, CLAIMABLE_CLICKS_SHOWN);
  const [stores, coupons] = await Promise.all([
    storeNames(reader, [...new Set(open.map(({ click }) => click.merchantId))]),
    couponTitles(reader, [...new Set(open.map(({ click }) => click.couponId))]),
  ]);
  return open.map(({ click, until }) => ({
    clickId: click.id,
    clickedAt: iso(click.clickedAt)!,
    storeId: click.merchantId,
    storeName: stores.get(click.merchantId)?.name ?? '',
    couponId: click.couponId,
    couponTitle: coupons.get(click.couponId) ?? '',
    claimableUntil: new Date(until).toISOString(),
  }));
}

export async function adminClaims(
  reader: Reader,
  rows: readonly ClaimRow[],
  settings: ClaimAnswerSettings,
): Promise<AdminClaim[]> {
  const { stores, coupons } = await namesOf(reader, rows);
  const [shoppers, clicks] = await Promise.all([
    shopperNames(reader, [...new Set(rows.map((row) => row.userId))]),
    clicksByIds(
      reader,
      rows.flatMap((row) => (row.clickId === null ? [] : [row.clickId])),
    ),
  ]);
  return rows.map((row) => {
    const click = row.clickId === null ? undefined : clicks.get(row.clickId);
    return {
      id: row.id,
      kind: row.kind,
      state: row.state,
      userId: row.userId,
      shopperName: shoppers.get(row.userId) ?? null,
      storeId: row.merchantId,
      storeName: stores.get(row.merchantId)?.name ?? '',
      couponId: row.couponId,
      couponTitle: row.couponId === null ? null : (coupons.get(row.couponId) ?? null),
      clickId: row.clickId,
      clickedAt: iso(click?.clickedAt ?? row.clickedAt),
      sameAddress: row.sameAddress,
      orderId: row.orderId,
      orderDate: row.orderDate,
      amount: paiseToRupees(Number(row.amountPaise)),
      invoiceUrl: invoiceUrl(row),
      earningId: row.earningId,
      filedAt: iso(row.filedAt)!,
      expectedBy: expectedBy(row, settings),
      answeredAt: iso(row.answeredAt),
      reason: row.reason,
    };
  });
}

/** What the mail of a claim's answer says: whose it is, the store, the order, the cashback or the reason. */
export async function claimMailFacts(
  reader: Reader,
  claimId: number,
): Promise<
  | {
      userId: number;
      storeName: string;
      orderId: string;
      cashbackPaise: number | null;
      reason: string | null;
    }
  | undefined
> {
  const row = await claimById(reader, claimId);
  if (!row || row.state === 'open') return undefined;
  const stores = await storeNames(reader, [row.merchantId]);
  const cashback = row.earningId === null ? new Map() : await cashbackOfEarnings(reader, [row.earningId]);
  return {
    userId: row.userId,
    storeName: stores.get(row.merchantId)?.name ?? '',
    orderId: row.orderId,
    cashbackPaise: row.earningId === null ? null : (cashback.get(row.earningId) ?? null),
    reason: row.reason,
  };
}
