import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { QueueName, QueueRegistry } from '@offers/api/platform';
import {
  CdnPurges,
  CouponListingProjection,
  HomeContentProjection,
  StorePageProjection,
} from '@offers/workers/consumers';
import {
  approve,
  type Marketplace,
  merchantWithCoupon,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
  untilListed,
} from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

/**
 * The CDN's purge hook: a server of the test's own on 127.0.0.1 stands for the CDN's purge
 * endpoint. The workers run as two processes (two workers modules on one database and Redis),
 * as a deployment runs several: each change is purged once all the same.
 */

interface Call {
  paths: string[];
  status: number;
  /** Coupons the public lists held when the call arrived. */
  listed: number[];
}

/** A purge endpoint that records each call and answers 503 to the next `failing` ones. */
class PurgeEndpoint {
  readonly calls: Call[] = [];
  failing = 0;
  private server?: Server;
  url = '';

  constructor(private readonly listed: () => Promise<number[]>) {}

  async start(): Promise<void> {
    this.server = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      const status = this.failing > 0 ? 503 : 200;
      if (this.failing > 0) this.failing -= 1;
      const listed = await this.listed().catch(() => []);
      this.calls.push({ paths: (JSON.parse(body) as { paths: string[] }).paths, status, listed });
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/purge`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const CONSUMERS = [CouponListingProjection, HomeContentProjection, StorePageProjection, CdnPurges];

let market: Marketplace;
let secondWorkers: WorkersApp;
let endpoint: PurgeEndpoint;

const listedCoupons = async () =>
  (
    (await market.api.dataSource.query('SELECT coupon_id AS id FROM coupon_listings ORDER BY 1')) as Array<{
      id: number;
    }>
  ).map((row) => row.id);

/** Every event applied and every purge job done (sent, or left failed). */
async function settled(of: Marketplace = market) {
  await untilEventsProcessed(of, 30_000);
  const queue = of.workers.module.get(QueueRegistry).get(QueueName.CdnPurges);
  await eventually(
    async () => {
      const counts = await queue.getJobCounts('wait', 'delayed', 'active', 'prioritized');
      return Object.values(counts).every((count) => count === 0);
    },
    'every purge sent',
    60_000,
  );
}

async function slugOf(merchantId: number): Promise<string> {
  const [{ slug }] = await market.api.dataSource.query('SELECT slug FROM merchants WHERE id = $1', [
    merchantId,
  ]);
  return slug;
}

beforeAll(async () => {
  endpoint = new PurgeEndpoint(listedCoupons);
  await endpoint.start();
  market = await startMarketplace('cdn_purge', {
    settings: { CDN_PURGE_URL: endpoint.url, CDN_PURGE_WAIT_MS: '1500' },
    consumers: CONSUMERS,
  });
  secondWorkers = await startWorkers(market.test.environment, ['events'], CONSUMERS);
}, 60_000);

afterAll(async () => {
  await secondWorkers?.close();
  await market?.close();
  await endpoint?.close();
});

describe('the purge hook', () => {
  it('sends the changed paths of every language once, after the lists hold the approved coupon', async () => {
    const { merchant, couponId } = await merchantWithCoupon(market, { title: 'Neem soap, buy 2 get 1' });
    await settled();
    endpoint.calls.length = 0;

    expect((await approve(market, couponId)).statusCode).toBe(200);
    await untilListed(market, couponId);
    await settled();

    const slug = await slugOf(merchant.id);
    expect(endpoint.calls).toHaveLength(1);
    const [call] = endpoint.calls;
    expect(call!.status).toBe(200);
    expect(call!.listed).toContain(couponId);
    expect(new Set(call!.paths).size).toBe(call!.paths.length);
    expect(call!.paths).toEqual(
      expect.arrayContaining([
        '/',
        '/hi/',
        '/te/',
        '/coupons',
        '/hi/coupons',
        '/te/coupons/*',
        '/top-offers',
        `/store/${slug}`,
        `/hi/store/${slug}`,
        `/te/store/${slug}`,
        `/store/${merchant.id}`,
        '/api/coupons',
        '/api/home',
        `/api/stores/${slug}`,
        `/api/stores/${merchant.id}`,
        `/api/MerchantPage/GetMerchantStore/${merchant.id}`,
        '/api/search/suggest',
        '/sitemap.xml',
      ]),
    );
  }, 90_000);

  it('gathers a burst of approvals into one or a few calls, each path once per call', async () => {
    const merchants: Array<{ id: number; coupons: number[] }> = [];
    for (let m = 0; m < 5; m += 1) {
      const { merchant, couponId } = await merchantWithCoupon(market, { title: `Burst offer ${m}-0` });
      const coupons = [couponId];
      for (let c = 1; c < 10; c += 1)
        coupons.push(await submitCoupon(market, merchant, { title: `Burst offer ${m}-${c}` }));
      merchants.push({ id: merchant.id, coupons });
    }
    await settled();
    endpoint.calls.length = 0;

    const all = merchants.flatMap((merchant) => merchant.coupons);
    const answers = await Promise.all(all.map((id) => approve(market, id)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(all.map(() => 200));
    await settled();

    expect(endpoint.calls.length).toBeGreaterThanOrEqual(1);
    expect(endpoint.calls.length).toBeLessThanOrEqual(3);
    for (const call of endpoint.calls) expect(new Set(call.paths).size).toBe(call.paths.length);
    const purged = new Set(endpoint.calls.flatMap((call) => call.paths));
    for (const merchant of merchants) {
      const slug = await slugOf(merchant.id);
      for (const path of [`/store/${slug}`, `/hi/store/${slug}`, `/te/store/${slug}`, `/api/stores/${slug}`])
        expect(purged).toContain(path);
    }
    // The last call came once the lists held every coupon of the burst.
    expect(endpoint.calls.at(-1)!.listed).toEqual(expect.arrayContaining(all));
  }, 180_000);

  it('tries a purge the endpoint refused again until it is taken', async () => {
    const { merchant, couponId } = await merchantWithCoupon(market, { title: 'Tulsi tea 10% off' });
    await settled();
    endpoint.calls.length = 0;
    endpoint.failing = 2;

    expect((await approve(market, couponId)).statusCode).toBe(200);
    await settled();

    const slug = await slugOf(merchant.id);
    expect(endpoint.calls.map((call) => call.status)).toEqual([503, 503, 200]);
    for (const call of endpoint.calls) expect(call.paths).toContain(`/store/${slug}`);
    expect(endpoint.calls[2]!.paths).toEqual(endpoint.calls[0]!.paths);
  }, 90_000);
});

describe('without CDN_PURGE_URL', () => {
  let quiet: Marketplace;

  beforeAll(async () => {
    quiet = await startMarketplace('cdn_purge_off', { consumers: CONSUMERS });
  }, 60_000);

  afterAll(async () => {
    await quiet?.close();
  });

  it('queues no purge and records no event for it', async () => {
    const { couponId } = await merchantWithCoupon(quiet);
    expect((await approve(quiet, couponId)).statusCode).toBe(200);
    await untilListed(quiet, couponId);
    await settled(quiet);

    const queue = quiet.workers.module.get(QueueRegistry).get(QueueName.CdnPurges);
    const counts = await queue.getJobCounts('wait', 'delayed', 'active', 'completed', 'failed');
    const [{ handled }] = await quiet.api.dataSource.query(
      `SELECT count(*)::int AS handled FROM inbox WHERE consumer = 'cdn-purges'`,
    );
    expect(Object.values(counts).every((count) => count === 0)).toBe(true);
    expect(handled).toBe(0);
  }, 60_000);
});
