import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEMO_COUPON_COUNT } from '@offers/api/demo/coupons';
import { DEMO_FEED_DAY, DEMO_FEEDS, DEMO_WAITING_ADVERTISER, movedToToday } from '@offers/api/demo/feeds';
import { seeds } from '@offers/api/demo/seeds';
import type { FeedRunAnswer } from '@offers/api/feeds/queries/answers';
import { CouponListingProjection } from '../../workers/src/consumers/coupon-listing.projection.js';
import { StorePageProjection } from '../../workers/src/consumers/store-page.projection.js';
import { FeedRunJobs } from '../../workers/src/feeds/feed-run-jobs.js';
import { type Marketplace, startMarketplace, untilEventsProcessed } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

/**
 * `npm start`'s seeds against a fresh database, with the workers' relay, events and feeds roles:
 * the demo feeds are imported by real runs, and a second start adds nothing.
 */

interface Card {
  id: number;
  merchant: { id: number; name: string; logoUrl: string | null };
  texts: { hi?: { title: string }; te?: { title: string } };
  categoryIds: number[];
  expiresAt: string | null;
  hasCode: boolean;
  cashback: { percent: string } | { rupees: string } | null;
}

let market: Marketplace;
let firstOutcomes: Array<string | undefined>;
let runs: FeedRunAnswer[];

beforeAll(async () => {
  market = await startMarketplace('demo_feeds', {
    roles: ['relay', 'events', 'feeds'],
    consumers: [FeedRunJobs, CouponListingProjection, StorePageProjection],
  });
  firstOutcomes = await runSeeds();
  runs = await eventually(
    async () => {
      const list: FeedRunAnswer[] = (await admin('/api/admin/feed-runs')).json();
      return list.length === DEMO_FEEDS.length && list.every((run) => run.finishedAt !== null)
        ? list
        : undefined;
    },
    'the demo feed runs to finish',
    150_000,
  );
  await untilEventsProcessed(market, 120_000);
}, 300_000);

afterAll(async () => {
  await market?.close();
});

function admin(url: string) {
  return market.api.http.inject({ method: 'GET', url, headers: market.admin });
}

async function runSeeds() {
  const outcomes: Array<string | undefined> = [];
  for (const seed of seeds) outcomes.push(await seed.run(market.api.dataSource, market.test.environment));
  return outcomes;
}

/** Every live coupon as the public lists show it. */
async function everyCard(): Promise<{ cards: Card[]; total: number }> {
  const cards: Card[] = [];
  for (let page = 1; ; page += 1) {
    const answer = (
      await market.api.http.inject({ method: 'GET', url: `/api/coupons?perPage=100&page=${page}` })
    ).json();
    cards.push(...answer.data);
    if (answer.data.length < 100) return { cards, total: answer.total };
  }
}

async function feedCouponIds(): Promise<Set<number>> {
  const rows: Array<{ coupon_id: number }> = await market.api.dataSource.query(
    'SELECT coupon_id FROM feed_coupons',
  );
  return new Set(rows.map((row) => row.coupon_id));
}

describe('the demo feeds', () => {
  it('are uploaded to two sources whose runs succeed, reporting rejected rows', () => {
    const feeds = seeds.findIndex((seed) => seed.name === 'feeds');
    expect(seeds.findIndex((seed) => seed.name === 'coupons')).toBeLessThan(feeds);
    expect(firstOutcomes[feeds]).toMatch(/2 feed sources mapped to \d+ stores/);
    expect(runs.map((run) => run.sourceName).sort()).toEqual(DEMO_FEEDS.map((feed) => feed.source).sort());
    for (const run of runs) {
      expect(run).toMatchObject({ status: 'succeeded', trigger: 'upload', error: null, duplicates: 0 });
      expect(run.rejected).toBeGreaterThan(0);
    }
    const added = runs.reduce((sum, run) => sum + run.added, 0);
    expect(added).toBeGreaterThanOrEqual(270);
    expect(added).toBeLessThanOrEqual(330);
  });

  it('list about 300 live coupons and deals over 30 stores or more, each with its logo', async () => {
    const { cards, total } = await everyCard();
    const fromFeeds = await feedCouponIds();
    const imported = cards.filter((card) => fromFeeds.has(card.id));
    const added = runs.reduce((sum, run) => sum + run.added, 0);

    expect(total).toBe(DEMO_COUPON_COUNT + added);
    expect(imported).toHaveLength(added);
    const stores = new Map(imported.map((card) => [card.merchant.id, card.merchant]));
    expect(stores.size).toBeGreaterThanOrEqual(30);
    expect([...stores.values()].filter((store) => !store.logoUrl)).toEqual([]);
    // Codes and deals, open-ended ones and ones ending within days, some in our categories.
    expect(imported.some((card) => !card.hasCode)).toBe(true);
    expect(imported.some((card) => card.hasCode)).toBe(true);
    expect(imported.some((card) => card.expiresAt === null)).toBe(true);
    const soon = Date.now() + 3 * 86_400_000;
    expect(imported.some((card) => card.expiresAt !== null && Date.parse(card.expiresAt) < soon)).toBe(true);
    expect(imported.filter((card) => card.categoryIds.length > 0).length).toBeGreaterThan(10);

    const logo = await market.api.http.inject({ method: 'GET', url: [...stores.values()][0]!.logoUrl! });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toMatch(/^image\//);
  });

  it('give the stores they create cashback as an admin would: percent, flat rupees, or none', async () => {
    const { cards } = await everyCard();
    const fromFeeds = await feedCouponIds();
    const imported = cards.filter((card) => fromFeeds.has(card.id));
    expect(imported.some((card) => card.cashback !== null && 'percent' in card.cashback)).toBe(true);
    expect(imported.some((card) => card.cashback !== null && 'rupees' in card.cashback)).toBe(true);
    expect(imported.some((card) => card.cashback === null)).toBe(true);
    // Each change went through the history, as the back-office shows it.
    const changes = await admin(`/api/admin/cashback-changes?range=${encodeURIComponent('[0,4]')}`);
    expect(changes.statusCode).toBe(200);
    expect(Number(String(changes.headers['content-range']).split('/')[1])).toBeGreaterThan(10);
  });

  it('carry Hindi and Telugu titles from the Admitad rows', async () => {
    const fromFeeds = await feedCouponIds();
    const imported = (await everyCard()).cards.filter((card) => fromFeeds.has(card.id));
    const hindi = imported.filter((card) => card.texts.hi && /[\u0900-\u097F]/.test(card.texts.hi.title));
    const telugu = imported.filter((card) => card.texts.te && /[\u0C00-\u0C7F]/.test(card.texts.te.title));
    expect(hindi.length).toBeGreaterThanOrEqual(50);
    expect(telugu.length).toBeGreaterThanOrEqual(30);
  });

  it('leave one advertiser waiting for a store, with its rows counted', async () => {
    const waiting = (
      await admin(`/api/admin/feed-advertisers?filter=${encodeURIComponent('{"mapped":false}')}`)
    ).json();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ name: DEMO_WAITING_ADVERTISER, merchantId: null });
    expect(waiting[0].rowsWaiting).toBeGreaterThan(0);
    expect(runs.reduce((sum, run) => sum + run.waiting, 0)).toBe(waiting[0].rowsWaiting);
  });

  it('record why rows were refused, in the run and its CSV', async () => {
    const reasons = new Set<string>();
    for (const run of runs) {
      const answer: FeedRunAnswer = (await admin(`/api/admin/feed-runs/${run.id}`)).json();
      expect(answer.rejections).toHaveLength(run.rejected);
      for (const rejection of answer.rejections) reasons.add(rejection.reason);
      const csv = await admin(`/api/admin/feed-runs/${run.id}/rejections.csv`);
      expect(csv.body.trim().split('\r\n')).toHaveLength(run.rejected + 1);
    }
    expect(reasons).toEqual(
      new Set([
        'bad-code',
        'ended-in-past',
        'bad-tracking-url',
        'unknown-language',
        'title-too-long',
        'end-before-start',
        'missing-title',
      ]),
    );
  });

  it('map networks’ categories to ours where one fits, and the rest to none', async () => {
    const categories = (
      await admin(`/api/admin/feed-categories?range=${encodeURIComponent('[0,99]')}`)
    ).json() as Array<{
      name: string;
      categoryName: string | null;
    }>;
    const ours = (name: string) =>
      categories.filter((row) => row.name === name).map((row) => row.categoryName);
    expect(ours('Fragrances')).toEqual(['Fragrance']);
    expect(ours('Perfumes')).toEqual(['Fragrance']);
    expect(ours('Skin Care')).toEqual(['Skin Care', 'Skin Care']);
    expect(ours('Travel')).toEqual([null, null]);
  });

  it('are seeded once: starting again adds nothing', async () => {
    const count = async (table: string) =>
      (await market.api.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;
    const tables = ['outbox', 'feed_sources', 'feed_runs', 'feed_advertisers', 'merchants', 'coupons'];
    const before = await Promise.all(tables.map(count));
    const listed = (await everyCard()).total;

    expect(await runSeeds()).toEqual(seeds.map(() => undefined));
    await untilEventsProcessed(market);
    expect(await Promise.all(tables.map(count))).toEqual(before);
    expect((await everyCard()).total).toBe(listed);
  });
});

describe('the demo feeds’ dates', () => {
  it('move with the day the seed runs, so the demo never goes stale', () => {
    const exported = `{"date_start": "2026-11-20 00:00:00", "date_end": "${DEMO_FEED_DAY} 23:59:59"}\n331001,2026-11-28,2026-12-03`;
    expect(movedToToday(exported, '2027-03-10')).toBe(
      '{"date_start": "2027-02-27 00:00:00", "date_end": "2027-03-10 23:59:59"}\n331001,2027-03-07,2027-03-12',
    );
    expect(movedToToday(exported, DEMO_FEED_DAY)).toBe(exported);
  });
});
