import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CouponRevealed } from '@offers/api/coupons/events/coupon-events';
import type { PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
import { StoreSaved } from '@offers/api/storefront/events/storefront-events';
import pg from 'pg';
import { CouponListingProjection } from '../../workers/src/consumers/coupon-listing.projection.js';
import { DailyFiguresProjection } from '../../workers/src/consumers/daily-figures.projection.js';
import { StorePageProjection } from '../../workers/src/consumers/store-page.projection.js';
import type { EventConsumer } from '../../workers/src/events/event-consumer.js';
import { applyOnce } from '../../workers/src/events/event-dispatcher.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

/**
 * The dispatcher applies two lots of a consumer at once. Lots that share rows of a read model (a
 * merchant's total of the day, a coupon's click count, a store's page) must not lock them in
 * opposite orders, or PostgreSQL breaks the cycle by failing one of them (40P01). Each case makes
 * the crossing happen for sure: a third transaction holds the first shared row, both lots start
 * while it does (the second once the first waits), then it lets go.
 */

const MERCHANT = 41;
const OCCURRED_AT = '2026-11-20T06:00:00.000Z';

const event = (type: string, aggregateId: number, payload: Record<string, unknown>): PublishedEvent => ({
  id: randomUUID(),
  position: '0',
  type,
  aggregateType: 'Test',
  aggregateId: String(aggregateId),
  payload,
  occurredAt: OCCURRED_AT,
});
const reveal = (couponId: number) => event(CouponRevealed.type, couponId, { merchantId: MERCHANT });
const storeSaved = (merchantId: number) => event(StoreSaved.type, merchantId, { merchantId });

let test: TestEnvironment;
let app: WorkersApp;

beforeAll(async () => {
  test = await createTestEnvironment('parallel lots');
  app = await startWorkers(test.environment, [], []);
});

afterAll(async () => {
  await app?.close();
  await test?.cleanup();
});

/** Transactions of this database waiting for a lock held by another. */
async function waiting(): Promise<number> {
  const [row] = await app.dataSource.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return row.n;
}

/**
 * Applies the two lots in parallel, each in its own transaction as the dispatcher does, while
 * `hold` (run in a transaction of its own) keeps them waiting; answers how each lot ended.
 */
async function applyCrossing(
  consumer: EventConsumer,
  lots: [PublishedEvent[], PublishedEvent[]],
  hold: string,
): Promise<PromiseSettledResult<unknown>[]> {
  const holder = new pg.Client({ connectionString: test.environment.DATABASE_URL });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query(hold);
    const apply = (lot: PublishedEvent[]) =>
      app.dataSource.transaction((manager) => applyOnce(consumer, lot, manager));
    const first = apply(lots[0]);
    await eventually(async () => (await waiting()) === 1, 'the first lot to wait');
    const second = apply(lots[1]);
    await eventually(async () => (await waiting()) === 2, 'the second lot to wait');
    await holder.query('COMMIT');
    return await Promise.allSettled([first, second]);
  } finally {
    await holder.end();
  }
}

const failures = (outcomes: PromiseSettledResult<unknown>[]) =>
  outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : []));

describe('lots of one consumer applied in parallel', () => {
  it('count into the daily figures rows they share without a deadlock', async () => {
    await app.dataSource.query(
      `INSERT INTO daily_figures (figure, merchant_id, coupon_id, day, count, amount_paise)
       VALUES ('reveals', $1, 0, ($2::timestamptz AT TIME ZONE 'Asia/Kolkata')::date, 0, 0)`,
      [MERCHANT, OCCURRED_AT],
    );
    const outcomes = await applyCrossing(
      new DailyFiguresProjection(),
      [
        [reveal(5), reveal(7)],
        [reveal(7), reveal(5)],
      ],
      `SELECT 1 FROM daily_figures WHERE figure = 'reveals' AND merchant_id = ${MERCHANT} AND coupon_id = 0 FOR UPDATE`,
    );
    expect(failures(outcomes)).toEqual([]);
    const counts = await app.dataSource.query(
      `SELECT coupon_id AS "couponId", count::int FROM daily_figures
       WHERE figure = 'reveals' AND merchant_id = $1 ORDER BY coupon_id`,
      [MERCHANT],
    );
    expect(counts).toEqual([
      { couponId: 0, count: 4 },
      { couponId: 5, count: 2 },
      { couponId: 7, count: 2 },
    ]);
  });

  it('count clicks on the coupons they share without a deadlock', async () => {
    const outcomes = await applyCrossing(
      new CouponListingProjection(),
      [
        [reveal(105), reveal(107)],
        [reveal(107), reveal(105)],
      ],
      "SELECT pg_advisory_xact_lock(hashtext('coupon-listing:105'))",
    );
    expect(failures(outcomes)).toEqual([]);
    const clicks = await app.dataSource.query(
      'SELECT coupon_id AS "couponId", clicks FROM coupon_clicks WHERE coupon_id IN (105, 107) ORDER BY 1',
    );
    expect(clicks).toEqual([
      { couponId: 105, clicks: 2 },
      { couponId: 107, clicks: 2 },
    ]);
  });

  it('build the store pages they share without a deadlock', async () => {
    const outcomes = await applyCrossing(
      new StorePageProjection(),
      [
        [storeSaved(201), storeSaved(202)],
        [storeSaved(202), storeSaved(201)],
      ],
      "SELECT pg_advisory_xact_lock(hashtext('store-page:201'))",
    );
    expect(failures(outcomes)).toEqual([]);
    const [{ handled }] = await app.dataSource.query(
      "SELECT count(*)::int AS handled FROM inbox WHERE consumer = 'store-pages'",
    );
    expect(handled).toBe(4);
  });
});
