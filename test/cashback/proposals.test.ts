import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CASHBACK_MESSAGES } from '@offers/api/rules';
import { CouponListingProjection } from '@offers/workers/consumers';
import { FeedRunJobs } from '@offers/workers/feeds';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { multipart } from '../support/coupons.js';
import { mapAdvertiser } from '../support/feeds.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

/**
 * A network whose feed carries its payouts (Cuelinks' `payout`, `payout_type`) proposes each
 * mapped store's rate: the payout times CASHBACK_SHARE_PERCENT. Nothing is applied until an admin
 * accepts it (through the store's change, in its history); a dismissed or applied rate is not
 * proposed again, a new payout is.
 */
let market: Marketplace;
let sourceId: number;
let percentStore: number;
let flatStore: number;

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });
const admin = (method: string, url: string, payload?: unknown) => inject(method, url, market.admin, payload);
const filter = (value: Record<string, unknown>) => `filter=${encodeURIComponent(JSON.stringify(value))}`;

/** Cuelinks offers of two advertisers: one paying a percentage, one a flat amount. */
const feed = (flatPayout: string) =>
  JSON.stringify({
    offers: [
      {
        id: 501,
        title: 'Extra 10% off serums',
        description: 'On every order.',
        coupon_code: 'GLOW10',
        affiliate_url: 'https://linksredirect.com/?cid=1&url=https%3A%2F%2Fglow.example.in%2F',
        end_date: '2031-06-30',
        campaign_id: 9101,
        campaign_name: 'Glow',
        payout: '8',
        payout_type: 'percentage',
      },
      {
        id: 502,
        title: 'Free shampoo over ₹999',
        description: 'While stocks last.',
        coupon_code: 'HAIR999',
        affiliate_url: 'https://linksredirect.com/?cid=2&url=https%3A%2F%2Fhair.example.in%2F',
        end_date: '2031-06-30',
        campaign_id: 9102,
        campaign_name: 'Hair',
        payout: flatPayout,
        payout_type: 'flat',
      },
    ],
  });

async function run(text: string) {
  const form = multipart(
    {},
    { file: { name: 'cuelinks.json', type: 'application/octet-stream', bytes: Buffer.from(text) } },
  );
  const requested = await inject(
    'POST',
    `/api/admin/feed-sources/${sourceId}/runs`,
    { ...market.admin, ...form.headers },
    form.payload,
  );
  expect(requested.statusCode).toBe(202);
  await eventually(
    async () =>
      (await admin('GET', `/api/admin/feed-runs/${requested.json().id}`)).json().status === 'succeeded',
    'the feed run',
  );
}

const openProposals = async () =>
  (
    await admin('GET', `/api/admin/cashback-proposals?${filter({ state: 'open' })}&sort=["storeId","ASC"]`)
  ).json();

beforeAll(async () => {
  market = await startMarketplace('cashback proposals', {
    consumers: [FeedRunJobs, CouponListingProjection],
    roles: ['relay', 'events', 'feeds'],
  });
  percentStore = (await registerAndSignInMerchant(market.api.baseUrl)).session.id;
  flatStore = (await registerAndSignInMerchant(market.api.baseUrl)).session.id;
  const created = await admin('POST', '/api/admin/feed-sources', {
    name: 'Cuelinks',
    format: 'cuelinks-json',
    url: null,
    reviewPolicy: 'publish',
  });
  expect(created.statusCode).toBe(201);
  sourceId = created.json().id;
  await mapAdvertiser(market.api.dataSource, sourceId, '9101', percentStore);
  await mapAdvertiser(market.api.dataSource, sourceId, '9102', flatStore);
}, 120_000);

afterAll(async () => {
  await market?.close();
});

describe('a feed’s payouts', () => {
  it('propose each store’s rate, the payout times the share, and apply nothing', async () => {
    expect(market.test.environment.CASHBACK_SHARE_PERCENT).toBe('70');
    await run(feed('150'));

    expect(await openProposals()).toEqual([
      expect.objectContaining({
        storeId: percentStore,
        sourceId,
        payout: { percent: '8.00' },
        sharePercent: '70.00',
        rate: { percent: '5.60' },
        currentRate: null,
        state: 'open',
      }),
      expect.objectContaining({
        storeId: flatStore,
        payout: { rupees: '150.00' },
        rate: { rupees: '105.00' },
        state: 'open',
      }),
    ]);
    expect((await admin('GET', `/api/admin/cashback-rates/${percentStore}`)).json()).toMatchObject({
      baseIsDefault: true,
      ownBase: null,
    });
  });

  it('are applied when an admin accepts one, through the store’s history, and forgotten when dismissed', async () => {
    const [percent, flat] = await openProposals();
    const accepted = await admin('POST', `/api/admin/cashback-proposals/${percent.id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ state: 'accepted', currentRate: { percent: '5.60' } });
    expect((await admin('GET', `/api/admin/cashback-rates/${percentStore}`)).json()).toMatchObject({
      base: { percent: '5.60' },
      baseIsDefault: false,
    });
    const [entry] = (
      await admin('GET', `/api/admin/cashback-changes?${filter({ storeId: percentStore })}`)
    ).json();
    expect(entry).toMatchObject({
      scope: 'store',
      rate: { percent: '5.60' },
      origin: 'proposal',
      proposalId: percent.id,
      adminName: 'admin',
    });

    const dismissed = await admin('POST', `/api/admin/cashback-proposals/${flat.id}/dismiss`);
    expect(dismissed.json()).toMatchObject({ state: 'dismissed', currentRate: null });
    const again = await admin('POST', `/api/admin/cashback-proposals/${flat.id}/accept`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(CASHBACK_MESSAGES.proposalDecided('dismissed'));
    expect((await admin('POST', '/api/admin/cashback-proposals/999999/accept')).statusCode).toBe(404);
    expect((await admin('GET', `/api/admin/cashback-rates/${flatStore}`)).json().ownBase).toBeNull();
  });

  it('propose again only what changed', async () => {
    await run(feed('150'));
    expect(await openProposals()).toEqual([]);

    await run(feed('200'));
    expect(await openProposals()).toEqual([
      expect.objectContaining({
        storeId: flatStore,
        payout: { rupees: '200.00' },
        rate: { rupees: '140.00' },
      }),
    ]);
    const events = await market.api.dataSource.query(
      "SELECT count(*)::int AS n FROM outbox WHERE type = 'CashbackProposed'",
    );
    expect(events[0].n).toBe(3);
  });
});
