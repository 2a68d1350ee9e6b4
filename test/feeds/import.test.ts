import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RequestDueFeedRuns } from '@offers/api/feeds/commands/feed-runs';
import {
  ADVERTISER_DIRECTORY,
  type AdvertiserDirectory,
} from '@offers/api/feeds/import/advertiser-directory';
import { feedCouponTarget } from '@offers/api/feeds/queries/feed-coupons';
import { ReadinessProbe } from '@offers/api/infrastructure/health/readiness';
import { Metrics } from '@offers/api/infrastructure/metrics/metrics';
import { CouponListingProjection } from '../../workers/src/consumers/coupon-listing.projection.js';
import { StorePageProjection } from '../../workers/src/consumers/store-page.projection.js';
import { FeedRunJobs } from '../../workers/src/feeds/feed-run-jobs.js';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { multipart } from '../support/coupons.js';
import {
  commandsOf,
  listed,
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
} from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';
import { admitadCoupon, fixture } from './feed-samples.js';

/**
 * The advertisers' mapping as the test sets it: advertiser id to store. Stands in for the
 * advertisers feature's admin-kept mapping, which the import reads through the same interface.
 */
const mapped = new Map<string, number>();
/** The store of every advertiser not in `mapped`, while a test sets it. */
let everyOtherAdvertiser: number | null = null;
const noted: Array<{ sourceId: number; id: string; rows: number }> = [];
const directory: AdvertiserDirectory = {
  storeOf: async (_manager, _sourceId, advertiserId) => mapped.get(advertiserId) ?? everyOtherAdvertiser,
  noteUnmapped: async (_manager, sourceId, advertiser, rows) => {
    noted.push({ sourceId, id: advertiser.id, rows });
  },
  categoryIdsFor: async () => [],
};

/** What the local feed server serves, by path. */
const feeds = new Map<string, { status: number; body: string }>();
/** Paths that answer an error status while the function gives one. */
const flaky = new Map<string, () => number | undefined>();
let server: Server;
let feedBase: string;
let market: Marketplace;
let storeA: number;
let storeB: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const failure = flaky.get(path)?.();
    if (failure) {
      response.writeHead(failure).end();
      return;
    }
    const feed = feeds.get(path);
    response.writeHead(feed?.status ?? 404, { 'content-type': 'application/json' });
    response.end(feed?.body ?? 'not found');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  feedBase = `http://127.0.0.1:${port}`;
  market = await startMarketplace('feed-import', {
    consumers: [FeedRunJobs, CouponListingProjection, StorePageProjection],
    roles: ['relay', 'events', 'feeds'],
    settings: { FEED_ALLOWED_HOSTS: `127.0.0.1:${port}`, FEED_RETRY_DELAY_MS: '50' },
    overrides: [{ provide: ADVERTISER_DIRECTORY, useValue: directory }],
  });
  storeA = (await registerAndSignInMerchant(market.api.baseUrl)).session.id;
  storeB = (await registerAndSignInMerchant(market.api.baseUrl)).session.id;
});

afterAll(async () => {
  await market?.close();
  server?.close();
});

function admin(method: 'GET' | 'POST', url: string, payload?: unknown) {
  return market.api.http.inject({ method, url, headers: market.admin, payload });
}

let names = 0;
async function aSource(overrides: Record<string, unknown> = {}): Promise<number> {
  names += 1;
  const response = await admin('POST', '/api/admin/feed-sources', {
    name: `Import network ${names}`,
    format: 'admitad-json',
    url: null,
    reviewPolicy: 'publish',
    ...overrides,
  });
  if (response.statusCode !== 201) throw new Error(`source not created: ${response.body}`);
  return response.json().id;
}

/** An Admitad row of the advertiser (campaign id) `advertiser`. */
function row(n: number, advertiser: number, changes: Record<string, unknown> = {}) {
  const base = admitadCoupon(n);
  return {
    ...base,
    campaign: { ...base.campaign, id: advertiser },
    date_end: '2031-12-31 23:59:59',
    ...changes,
  };
}

const admitad = (rows: unknown[]) => JSON.stringify({ results: rows });

/** Requests a run (with the feed as an uploaded file, or fetched) and waits for it to stop. */
async function runOf(sourceId: number, body?: string) {
  const form =
    body === undefined
      ? undefined
      : multipart({}, { file: { name: 'feed.json', type: 'application/json', bytes: Buffer.from(body) } });
  const response = await market.api.http.inject({
    method: 'POST',
    url: `/api/admin/feed-sources/${sourceId}/runs`,
    headers: { ...market.admin, ...(form?.headers ?? {}) },
    payload: form?.payload,
  });
  if (response.statusCode !== 202) throw new Error(`run not requested: ${response.body}`);
  return untilRunStops(response.json().id);
}

async function untilRunStops(runId: number) {
  const run = await eventually(async () => {
    const answer = (await admin('GET', `/api/admin/feed-runs/${runId}`)).json();
    return ['succeeded', 'failed', 'waiting-for-admin'].includes(answer.status) ? answer : undefined;
  }, `feed run ${runId} to stop`);
  await untilEventsProcessed(market);
  return run;
}

async function couponOf(sourceId: number, rowId: string) {
  const [coupon] = await market.api.dataSource.query(
    `SELECT c.id, c.status, c.title, c.coupon_code AS code, c.expiry_date AS "expiryDate", c.exclusive
     FROM feed_coupons f JOIN coupons c ON c.id = f.coupon_id WHERE f.source_id = $1 AND f.row_id = $2`,
    [sourceId, rowId],
  );
  return coupon;
}

async function couponEvents(): Promise<number> {
  const [{ n }] = await market.api.dataSource.query(
    "SELECT count(*)::int AS n FROM outbox WHERE aggregate_type = 'Coupon'",
  );
  return n;
}

const shown = async (couponId: number) => (await listed(market)).data.some((card) => card.id === couponId);

describe('a feed run', () => {
  it('adds new rows as coupons of their stores, counts what it read, and lets unmapped rows wait', async () => {
    mapped.set('4101', storeA);
    const sourceId = await aSource();
    const run = await runOf(
      sourceId,
      admitad([
        row(1, 4101, { promocode: 'FIRST101' }),
        row(2, 4101, { promocode: 'NOT REQUIRED', species: 'action', name: 'Deal of the day at the store' }),
        row(4, 4199),
        row(5, 4101, { date_start: '2019-01-01 00:00:00', date_end: '2020-01-01 00:00:00' }),
      ]),
    );
    expect(run).toMatchObject({
      status: 'succeeded',
      rowsRead: 4,
      added: 2,
      rejected: 1,
      unchanged: 0,
      ended: 0,
    });
    expect(run.rejections).toEqual([expect.objectContaining({ rowId: '500005', reason: 'ended-in-past' })]);
    expect(run.waiting).toBe(1);
    const code = await couponOf(sourceId, '500001');
    const deal = await couponOf(sourceId, '500002');
    expect(code).toMatchObject({ status: 'live', code: 'FIRST101' });
    expect(deal).toMatchObject({ status: 'live', code: null });
    expect(await couponOf(sourceId, '500004')).toBeUndefined();
    expect(noted).toContainEqual({ sourceId, id: '4199', rows: 1 });
    expect(await shown(code.id)).toBe(true);
    expect(await feedCouponTarget(market.api.dataSource, code.id)).toEqual({
      trackingUrl: admitadCoupon(1).goto_link,
      subIdParam: 'subid',
    });
    const [{ uploads }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS uploads FROM feed_uploads WHERE run_id = $1',
      [run.id],
    );
    expect(uploads).toBe(0);

    // Mapped since: its row flows on the next run.
    mapped.set('4199', storeB);
    const again = await runOf(
      sourceId,
      admitad([
        row(1, 4101, { promocode: 'FIRST101' }),
        row(2, 4101, { promocode: 'NOT REQUIRED', species: 'action', name: 'Deal of the day at the store' }),
        row(4, 4199),
      ]),
    );
    expect(again).toMatchObject({ status: 'succeeded', added: 1, unchanged: 2 });
    expect(await couponOf(sourceId, '500004')).toMatchObject({ status: 'live' });
  });

  it('changes nothing for the same feed again, and updates changed rows through a command', async () => {
    mapped.set('4201', storeA);
    const sourceId = await aSource({ reviewPolicy: 'publish' });
    const feed = [row(11, 4201), row(12, 4201)];
    await runOf(sourceId, admitad(feed));
    const before = await couponEvents();
    const same = await runOf(sourceId, admitad(feed));
    expect(same).toMatchObject({ status: 'succeeded', added: 0, updated: 0, unchanged: 2 });
    expect(await couponEvents()).toBe(before);

    const changed = await runOf(
      sourceId,
      admitad([row(11, 4201, { name: 'Now 80% off everything' }), row(12, 4201)]),
    );
    expect(changed).toMatchObject({ status: 'succeeded', updated: 1, unchanged: 1 });
    const coupon = await couponOf(sourceId, '500011');
    expect(coupon.title).toBe('Now 80% off everything');
    const [{ revised }] = await market.api.dataSource.query(
      "SELECT count(*)::int AS revised FROM outbox WHERE type = 'CouponRevised' AND aggregate_id = $1",
      [String(coupon.id)],
    );
    expect(revised).toBe(1);
    await eventually(async () => {
      const card = (await listed(market)).data.find((c) => c.id === coupon.id);
      return card?.title === 'Now 80% off everything';
    }, 'the listing to show the new title');
  });

  it('merges rows of one id in other languages as the coupon’s translations', async () => {
    mapped.set('4301', storeA);
    const sourceId = await aSource();
    await runOf(
      sourceId,
      admitad([
        row(21, 4301),
        row(22, 4301),
        row(21, 4301, { language: 'hi', name: 'सभी ऑर्डर पर 20% की छूट', description: 'हिंदी विवरण' }),
      ]),
    );
    const coupon = await couponOf(sourceId, '500021');
    const [text] = await market.api.dataSource.query(
      "SELECT title, description FROM coupon_texts WHERE coupon_id = $1 AND language = 'hi'",
      [coupon.id],
    );
    expect(text).toEqual({ title: 'सभी ऑर्डर पर 20% की छूट', description: 'हिंदी विवरण' });
    const card = (await listed(market)).data.find((c) => c.id === coupon.id) as {
      texts?: { hi?: { title: string } };
    };
    expect(card?.texts?.hi?.title ?? (await cardInHindi(coupon.id))).toBe('सभी ऑर्डर पर 20% की छूट');
  });
});

async function cardInHindi(couponId: number) {
  const response = await market.api.http.inject({
    method: 'GET',
    url: '/api/coupons?perPage=100&language=hi',
  });
  return (response.json().data as Array<{ id: number; title: string }>).find((c) => c.id === couponId)?.title;
}

describe('endings', () => {
  it('ends what a full feed leaves out, and brings it back when listed again', async () => {
    mapped.set('4401', storeA);
    feeds.set('/full.json', {
      status: 200,
      body: admitad([row(31, 4401), row(32, 4401), row(33, 4401), row(34, 4401)]),
    });
    const sourceId = await aSource({ url: `${feedBase}/full.json`, mode: 'full' });
    expect(await runOf(sourceId)).toMatchObject({ status: 'succeeded', added: 4 });
    const left = await couponOf(sourceId, '500034');
    expect(await shown(left.id)).toBe(true);

    feeds.set('/full.json', { status: 200, body: admitad([row(31, 4401), row(32, 4401), row(33, 4401)]) });
    expect(await runOf(sourceId)).toMatchObject({ status: 'succeeded', ended: 1, unchanged: 3 });
    expect(await couponOf(sourceId, '500034')).toMatchObject({ status: 'expired' });
    expect(await shown(left.id)).toBe(false);

    feeds.set('/full.json', {
      status: 200,
      body: admitad([row(31, 4401), row(32, 4401), row(33, 4401), row(34, 4401)]),
    });
    expect(await runOf(sourceId)).toMatchObject({ status: 'succeeded', updated: 1, unchanged: 3 });
    expect(await couponOf(sourceId, '500034')).toMatchObject({ status: 'live' });
    expect(await shown(left.id)).toBe(true);
  });

  it('waits for an admin before ending over half a source’s live coupons, and ends them once accepted', async () => {
    mapped.set('4501', storeA);
    feeds.set('/half.json', { status: 200, body: admitad([row(41, 4501), row(42, 4501), row(43, 4501)]) });
    const sourceId = await aSource({ url: `${feedBase}/half.json`, mode: 'full' });
    await runOf(sourceId);
    // With a row of an advertiser not mapped yet: the held run counts it as waiting already.
    feeds.set('/half.json', { status: 200, body: admitad([row(41, 4501), row(44, 4599)]) });
    const held = await runOf(sourceId);
    expect(held).toMatchObject({ status: 'waiting-for-admin', unchanged: 1, waiting: 1 });
    expect(await couponOf(sourceId, '500042')).toMatchObject({ status: 'live' });

    expect((await admin('POST', `/api/admin/feed-runs/${held.id}/accept`)).statusCode).toBeLessThan(300);
    const accepted = await untilRunStops(held.id);
    expect(accepted).toMatchObject({ status: 'succeeded', ended: 2, waiting: 1 });
    expect(await couponOf(sourceId, '500042')).toMatchObject({ status: 'expired' });
    expect(await couponOf(sourceId, '500041')).toMatchObject({ status: 'live' });
  });

  it('ends a coupon an incremental feed marks suspended', async () => {
    mapped.set('Myntra-lmd', storeB);
    const sourceId = await aSource({ format: 'linkmydeals-csv', mode: 'incremental' });
    const header =
      'lmd_id,store,merchant_homepage,title,description,code,terms_and_conditions,categories,url,smartlink,type,offer,offer_value,status,start_date,end_date\r\n';
    const line = (status: string) =>
      `880001,Myntra-lmd,https://www.myntra.com,Flat 30% off on shoes,Shoes at 30% off,SHOES30,,Fashion,https://www.myntra.com/shoes,https://linkmydeals.org/s/x1,Code,Percentage Off,30,${status},2026-01-01,2031-12-31\r\n`;
    expect(await runOf(sourceId, header + line('new'))).toMatchObject({ status: 'succeeded', added: 1 });
    expect(await couponOf(sourceId, '880001')).toMatchObject({ status: 'live', code: 'SHOES30' });
    expect(await runOf(sourceId, header + line('suspended'))).toMatchObject({
      status: 'succeeded',
      ended: 1,
    });
    expect(await couponOf(sourceId, '880001')).toMatchObject({ status: 'expired' });
  });
});

describe('duplicates', () => {
  it('keeps the first source’s code for a store, and a merchant’s own code wins over a feed’s', async () => {
    mapped.set('4601', storeB);
    const first = await aSource();
    const second = await aSource();
    await runOf(first, admitad([row(55, 4601, { promocode: 'TWICE51' })]));
    const run = await runOf(
      second,
      admitad([row(52, 4601, { promocode: 'twice51' }), row(53, 4601, { promocode: 'ONCE53' })]),
    );
    expect(run).toMatchObject({ status: 'succeeded', added: 1, duplicates: 1 });
    expect(await couponOf(second, '500052')).toBeUndefined();

    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    await submitCoupon(market, session, { couponCode: 'OWNCODE9' });
    mapped.set('4602', session.id);
    const third = await aSource();
    const own = await runOf(third, admitad([row(56, 4602, { promocode: 'OWNCODE9' })]));
    expect(own).toMatchObject({ added: 0, duplicates: 1 });
  });
});

describe('a merchant', () => {
  it('whose own coupon has a feed coupon’s code, added since, wins: the feed’s ends', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    mapped.set('4661', session.id);
    const sourceId = await aSource();
    const feed = admitad([row(95, 4661, { promocode: 'MINE95' })]);
    await runOf(sourceId, feed);
    const coupon = await couponOf(sourceId, '500095');
    expect(coupon).toMatchObject({ status: 'live' });
    await submitCoupon(market, session, { couponCode: 'mine95' });
    const run = await runOf(sourceId, feed);
    expect(run).toMatchObject({ status: 'succeeded', duplicates: 1, unchanged: 0 });
    expect(await couponOf(sourceId, '500095')).toMatchObject({ status: 'expired' });
    expect(await shown(coupon.id)).toBe(false);
    expect(await runOf(sourceId, feed)).toMatchObject({ status: 'succeeded', duplicates: 1, updated: 0 });
    expect(await couponOf(sourceId, '500095')).toMatchObject({ status: 'expired' });
  });

  it('hides a feed coupon of its store for good: changes and a return in the feed leave it hidden', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    mapped.set('4651', session.id);
    feeds.set('/hidden.json', { status: 200, body: admitad([row(91, 4651), row(92, 4651), row(94, 4651)]) });
    const sourceId = await aSource({ url: `${feedBase}/hidden.json`, mode: 'full' });
    await runOf(sourceId);
    const coupon = await couponOf(sourceId, '500091');
    const withdrawn = await market.api.http.inject({
      method: 'DELETE',
      url: `/api/merchant/coupons/${coupon.id}`,
      headers: session.bearer,
    });
    expect(withdrawn.statusCode).toBeLessThan(300);

    feeds.set('/hidden.json', {
      status: 200,
      body: admitad([row(91, 4651, { name: 'Changed title' }), row(92, 4651), row(94, 4651)]),
    });
    await runOf(sourceId);
    feeds.set('/hidden.json', { status: 200, body: admitad([row(92, 4651), row(94, 4651)]) });
    await runOf(sourceId);
    feeds.set('/hidden.json', { status: 200, body: admitad([row(91, 4651), row(92, 4651), row(94, 4651)]) });
    await runOf(sourceId);
    expect(await couponOf(sourceId, '500091')).toMatchObject({ status: 'withdrawn' });
    expect(await shown(coupon.id)).toBe(false);
  });
});

describe('a failed fetch', () => {
  it('is tried again with backoff, and goes on once the network answers', async () => {
    mapped.set('4801', storeA);
    let failures = 2;
    feeds.set('/retry.json', { status: 200, body: admitad([row(71, 4801)]) });
    const sourceId = await aSource({ url: `${feedBase}/retry.json`, mode: 'full' });
    flaky.set('/retry.json', () => (failures-- > 0 ? 503 : undefined));
    const run = await runOf(sourceId);
    expect(run).toMatchObject({ status: 'succeeded', added: 1, error: null });
    expect(failures).toBeLessThan(0);
  });

  it('ends nothing and changes nothing, and shows the run failed after its last attempt', async () => {
    mapped.set('4701', storeA);
    feeds.set('/down.json', { status: 200, body: admitad([row(61, 4701), row(62, 4701)]) });
    const sourceId = await aSource({ url: `${feedBase}/down.json`, mode: 'full' });
    await runOf(sourceId);
    const before = await couponEvents();
    feeds.set('/down.json', { status: 503, body: 'down' });
    const failed = await runOf(sourceId);
    expect(failed).toMatchObject({ status: 'failed', ended: 0, added: 0 });
    expect(failed.error).toContain('127.0.0.1');
    expect(failed.error).not.toContain('/down.json');
    expect(await couponOf(sourceId, '500061')).toMatchObject({ status: 'live' });
    expect(await couponOf(sourceId, '500062')).toMatchObject({ status: 'live' });
    expect(await couponEvents()).toBe(before);
  });
});

describe('schedules, metrics and readiness', () => {
  it('requests a run of a scheduled source when its interval has passed, once', async () => {
    mapped.set('4901', storeB);
    feeds.set('/scheduled.json', { status: 200, body: admitad([row(81, 4901)]) });
    const sourceId = await aSource({ url: `${feedBase}/scheduled.json`, scheduleMinutes: 15 });
    const requested = await commandsOf(market).execute(new RequestDueFeedRuns());
    expect(requested).toBeGreaterThanOrEqual(1);
    const [run] = await market.api.dataSource.query(
      "SELECT id, trigger FROM feed_runs WHERE source_id = $1 AND trigger = 'scheduled'",
      [sourceId],
    );
    expect(await untilRunStops(run.id)).toMatchObject({ status: 'succeeded', added: 1 });
    await commandsOf(market).execute(new RequestDueFeedRuns());
    const [{ runs }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS runs FROM feed_runs WHERE source_id = $1',
      [sourceId],
    );
    expect(runs).toBe(1);

    const metrics = await market.workers.module.get(Metrics).registry.metrics();
    expect(metrics).toMatch(
      new RegExp(`offers_feed_rows_total\\{[^}]*source="${sourceId}",outcome="added"[^}]*\\} 1\\n`),
    );
    const lastSuccess = metrics
      .split('\n')
      .find(
        (l) =>
          l.startsWith('offers_feed_last_success_timestamp_seconds{') && l.includes(`source="${sourceId}"`),
      );
    expect(lastSuccess).toMatch(/ \d+(\.\d+)?$/);
  });

  it('readiness notes a source without success for three of its intervals, and stays ready for it', async () => {
    const sourceId = await aSource({ url: `${feedBase}/never.json`, scheduleMinutes: 15, enabled: true });
    // Created long ago and never succeeded (no run since: the schedule is not running here).
    await market.api.dataSource.query(
      "UPDATE feed_sources SET created_at = now() - interval '50 minutes' WHERE id = $1",
      [sourceId],
    );
    const report = await market.workers.module.get(ReadinessProbe).check();
    expect(report.notices.feeds).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^feed source ${sourceId} .* has not succeeded`)),
      ]),
    );
    expect(report.reasons.join(' ')).not.toContain('feed');
  });
});

describe('each format', () => {
  const MAPPING = {
    separator: ';',
    columns: {
      rowId: 'Offer ID',
      advertiserId: 'Merchant ID',
      advertiserName: 'Merchant',
      code: 'Voucher',
      title: 'Headline',
      description: 'Details',
      startsAt: 'Valid From',
      endsAt: 'Valid Until',
      status: 'State',
      trackingUrl: 'Link',
      language: 'Lang',
    },
  };

  it.each([
    ['admitad-json', 'admitad-coupons.json', {}, { rowsRead: 5, added: 2, unchanged: 1, duplicates: 0 }],
    ['linkmydeals-csv', 'linkmydeals.csv', {}, { rowsRead: 4, added: 3, unchanged: 1 }],
    ['mapped-csv', 'mapped-semicolon.csv', { mapping: MAPPING }, { rowsRead: 3, added: 2, unchanged: 1 }],
  ])(
    'imports %s (%s): codes, deals, open-ended rows and translations',
    async (format, file, extra, counts) => {
      everyOtherAdvertiser = storeB;
      try {
        const sourceId = await aSource({ format, ...extra });
        const run = await runOf(sourceId, readFileSync(fixture(file), 'utf8'));
        expect(run).toMatchObject({ status: 'succeeded', rejected: 0, ...counts });
        const [{ n }] = await market.api.dataSource.query(
          'SELECT count(*)::int AS n FROM feed_coupons WHERE source_id = $1',
          [sourceId],
        );
        expect(n).toBe(counts.added);
      } finally {
        everyOtherAdvertiser = null;
      }
    },
  );

  it('imports the Cuelinks sample', async () => {
    everyOtherAdvertiser = storeB;
    try {
      const sourceId = await aSource({ format: 'cuelinks-json' });
      const run = await runOf(sourceId, readFileSync(fixture('cuelinks-offers.json'), 'utf8'));
      expect(run).toMatchObject({ status: 'succeeded', rowsRead: 3 });
      expect(run.added + run.rejected).toBe(3);
      expect(run.added).toBeGreaterThanOrEqual(2);
    } finally {
      everyOtherAdvertiser = null;
    }
  });

  it('merges the Hindi row of an Admitad coupon, and the Telugu row of its code under another id, as its texts', async () => {
    everyOtherAdvertiser = storeA;
    try {
      const sourceId = await aSource();
      await runOf(sourceId, readFileSync(fixture('admitad-coupons.json'), 'utf8'));
      const coupon = await couponOf(sourceId, '481201');
      const texts = await market.api.dataSource.query(
        'SELECT language FROM coupon_texts WHERE coupon_id = $1 ORDER BY language',
        [coupon.id],
      );
      expect(texts).toEqual([{ language: 'hi' }, { language: 'te' }]);
    } finally {
      everyOtherAdvertiser = null;
    }
  });
});
