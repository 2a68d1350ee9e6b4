/** An earning's timeline as its shopper reads it: its own row, and the other features' facts through their functions. */
import type { EntityManager } from 'typeorm';
import { storeCashback } from '../../cashback/queries/rates.js';
import { findClick } from '../../clicks/queries/clicks.js';
import type { Environment } from '../../infrastructure/config/environment.js';
import { type CoveringPayout, payoutCovering } from '../../payouts/queries/payouts.js';
import type { CashbackState } from '../../rules/engagement.js';
import { storeNames } from '../../storefront/queries/store-identity.js';
import { rupees } from '../money.js';
import type { EarningKind, EarningTimeline, EarningTimelineStep } from './answers.js';

const DAY_MS = 86_400_000;

interface TimelineRow {
  id: number;
  kind: EarningKind;
  state: CashbackState;
  merchantId: number | null;
  clickId: string | null;
  purchaseAmountPaise: string | null;
  amountPaise: string;
  cancelReason: string | null;
  createdAt: Date;
  confirmedAt: Date | null;
  paidAt: Date | null;
  cancelledAt: Date | null;
  /** The shopper's confirmed money up to and including this earning (confirmed ones only). */
  confirmedThroughPaise: string | null;
}

/**
 * The shopper's ($2) earning ($1), or nothing: another shopper's earning reads as no earning.
 * A confirmed earning also gets the sum of the shopper's confirmed money up to it, in the order
 * payouts spend it (the oldest confirmed first).
 */
const SHOPPERS_EARNING = `
  SELECT e.id, e.kind, e.state, e.merchant_id AS "merchantId", e.click_id AS "clickId",
         e.purchase_amount_paise AS "purchaseAmountPaise", e.amount_paise AS "amountPaise",
         e.cancel_reason AS "cancelReason", e.created_at AS "createdAt", e.confirmed_at AS "confirmedAt",
         e.paid_at AS "paidAt", e.cancelled_at AS "cancelledAt",
         CASE WHEN e.state = 'confirmed' THEN
           (SELECT sum(o.amount_paise) FROM earnings o
            WHERE o.user_id = e.user_id AND o.state = 'confirmed'
              AND (o.confirmed_at, o.id) <= (e.confirmed_at, e.id))::text
         END AS "confirmedThroughPaise"
  FROM earnings e WHERE e.id = $1 AND e.user_id = $2`;

const iso = (at: Date | null | undefined) => (at ? new Date(at).toISOString() : null);

const step = (
  name: EarningTimelineStep['step'],
  status: EarningTimelineStep['status'],
  at: Date | null | undefined,
  expectedAt: Date | null = null,
): EarningTimelineStep => ({ step: name, status, at: iso(at), expectedAt: iso(expectedAt) });

/**
 * The steps of an earning, from what is known of it. The expected confirmation is the tracking
 * time plus the days the store takes to confirm as it has them now (see docs/decisions.md).
 */
export function timelineSteps(
  row: Omit<TimelineRow, 'confirmedThroughPaise'>,
  facts: { clickedAt: Date | null; confirmDays: number | null; payout: CoveringPayout | null },
): EarningTimelineStep[] {
  const expected =
    facts.confirmDays === null
      ? null
      : new Date(new Date(row.createdAt).getTime() + facts.confirmDays * DAY_MS);
  const steps: EarningTimelineStep[] = [];
  if (facts.clickedAt) steps.push(step('clicked', 'done', facts.clickedAt));
  steps.push(step('tracked', 'done', row.createdAt));
  steps.push(step('pending', row.state === 'pending' ? 'current' : 'done', row.createdAt, expected));
  if (row.state === 'pending') {
    steps.push(step('confirmed', 'upcoming', null, expected));
    steps.push(step('paid', 'upcoming', null));
    return steps;
  }
  if (row.confirmedAt) steps.push(step('confirmed', 'done', row.confirmedAt));
  if (row.state === 'cancelled') {
    steps.push(step('cancelled', 'done', row.cancelledAt));
    return steps;
  }
  if (row.state === 'paid') steps.push(step('paid', 'done', row.paidAt));
  else if (facts.payout?.state === 'paid') steps.push(step('paid', 'done', facts.payout.paidAt));
  else steps.push(step('paid', facts.payout ? 'current' : 'upcoming', null));
  return steps;
}

/** The shopper's earning with its timeline, or undefined when the shopper has no such earning. */
export async function earningTimeline(
  manager: EntityManager,
  userId: number,
  earningId: number,
  settings: Pick<Environment, 'CASHBACK_DEFAULT_RATE_PERCENT'>,
): Promise<EarningTimeline | undefined> {
  const [row]: TimelineRow[] = await manager.query(SHOPPERS_EARNING, [earningId, userId]);
  if (!row) return undefined;
  const storeId = row.merchantId;
  const [store, cashback, click, payout] = await Promise.all([
    storeId === null ? undefined : storeNames(manager, [storeId]).then((names) => names.get(storeId)),
    storeId === null
      ? undefined
      : storeCashback(manager, [storeId], settings).then((answers) => answers.get(storeId)),
    row.clickId === null ? undefined : findClick(manager, row.clickId),
    row.confirmedThroughPaise === null
      ? undefined
      : payoutCovering(manager, userId, Number(row.confirmedThroughPaise)),
  ]);
  const confirmDays = cashback?.confirmDays ?? null;
  return {
    id: row.id,
    type: row.kind,
    state: row.state,
    store: store ? { id: store.id, name: store.name, slug: store.slug } : null,
    purchaseAmount: row.purchaseAmountPaise === null ? null : rupees(row.purchaseAmountPaise),
    cashback: rupees(row.amountPaise),
    confirmDays,
    cancelReason: row.state === 'cancelled' ? row.cancelReason : null,
    payout: payout
      ? {
          id: payout.id,
          state: payout.state,
          requestedAt: iso(payout.requestedAt)!,
          paidAt: iso(payout.paidAt),
        }
      : null,
    steps: timelineSteps(row, { clickedAt: click?.clickedAt ?? null, confirmDays, payout: payout ?? null }),
  };
}
