import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { validateEnvironment } from '@offers/api/infrastructure/config/environment';
import { OperationsService } from '@offers/api/infrastructure/health/operations.module';
import { RATE_LIMITS } from '@offers/api/rules/rate-limits';
import { type ApiApp, send, startApi } from '../support/api-app.js';
import { approve, type Marketplace, merchantWithCoupon, startMarketplace } from '../support/marketplace.js';

/**
 * The per-address rate limits: one layer in Redis shared by every API process, per class of
 * routes, with the client address taken through the trusted proxies (IPv6 by its /64).
 */
let market: Marketplace;
/** A second API process of the same installation (same database, Redis and prefix). */
let second: ApiApp;
/** Processes of the same installation with other settings. */
let untrusting: ApiApp;
let exempting: ApiApp;

const withSettings = (settings: Record<string, string>) =>
  startApi(validateEnvironment({ ...market.test.variables, ...settings }));

beforeAll(async () => {
  market = await startMarketplace('rate limits');
  second = await withSettings({});
  // X-Forwarded-For believed only from 10.0.0.0/8: a client on loopback is itself.
  untrusting = await withSettings({ TRUSTED_PROXIES: '10.0.0.0/8' });
  exempting = await withSettings({ RATE_LIMIT_EXEMPT: '10.50.0.0/16, 2001:db8:ee::/48' });
}, 60_000);

afterAll(async () => {
  await Promise.all([second?.close(), untrusting?.close(), exempting?.close()]);
  await market?.close();
});

const SUGGESTIONS = RATE_LIMITS.suggestions;
let asked = 0;
/** A search not asked before: a kept answer is sent before routing and costs nothing to count. */
const suggest = (api: ApiApp, address?: string) => {
  asked += 1;
  return send(api.baseUrl, {
    method: 'GET',
    url: `/api/search/suggest?q=serum${asked}`,
    headers: address ? { 'x-forwarded-for': address } : {},
  });
};

/** Uses up an address's allowance of suggestions; answers the statuses. */
async function exhaust(api: ApiApp, address?: string, extra = 1) {
  const statuses: number[] = [];
  for (let i = 0; i < SUGGESTIONS.points + extra; i += 1)
    statuses.push((await suggest(api, address)).statusCode);
  return statuses;
}

describe('per-address limits', () => {
  it('answers 429 with Retry-After and the reason to one address while another is served', async () => {
    const statuses = await exhaust(market.api, '203.0.113.10');
    expect(statuses.slice(0, SUGGESTIONS.points).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);

    const refused = await suggest(market.api, '203.0.113.10');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ statusCode: 429, message: SUGGESTIONS.message });
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(SUGGESTIONS.seconds);

    expect((await suggest(market.api, '203.0.113.11')).statusCode).toBe(200);
    // Another class of routes keeps its own count.
    const { couponId } = await merchantWithCoupon(market);
    await approve(market, couponId);
    const reveal = await send(market.api.baseUrl, {
      method: 'POST',
      url: `/api/coupons/${couponId}/reveal`,
      headers: { 'x-forwarded-for': '203.0.113.10' },
    });
    expect(reveal.statusCode).toBe(200);
  });

  it('shares the count between API processes', async () => {
    for (let i = 0; i < SUGGESTIONS.points; i += 1) {
      const api = i % 2 === 0 ? market.api : second;
      expect((await suggest(api, '203.0.113.20')).statusCode).toBe(200);
    }
    expect((await suggest(second, '203.0.113.20')).statusCode).toBe(429);
    expect((await suggest(market.api, '203.0.113.20')).statusCode).toBe(429);
  });

  it('counts an IPv6 client by its /64 network', async () => {
    for (let i = 0; i < SUGGESTIONS.points; i += 1) {
      expect((await suggest(market.api, `2001:db8:10:20::${(i + 1).toString(16)}`)).statusCode).toBe(200);
    }
    expect((await suggest(market.api, '2001:db8:10:20:abcd::1')).statusCode).toBe(429);
    expect((await suggest(market.api, '2001:db8:10:21::1')).statusCode).toBe(200);
  });

  it('counts refusals per class in the metrics', async () => {
    const operations = market.api.app.get(OperationsService).server.url!;
    const scrape = async () => {
      const text = (await send(operations, { method: 'GET', url: '/metrics' })).body;
      const line = text
        .split('\n')
        .find((row) => row.startsWith('offers_rate_limited_total{class="suggestions"'));
      return Number(line?.split(' ').at(-1) ?? 0);
    };
    const before = await scrape();
    const statuses = await exhaust(market.api, '203.0.113.30', 3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(3);
    expect((await scrape()) - before).toBe(3);
  });

  it('leaves the exempt addresses alone', async () => {
    const statuses = [
      ...(await exhaust(exempting, '10.50.3.4')),
      ...(await exhaust(exempting, '2001:db8:ee:1::9')),
    ];
    expect(statuses.every((status) => status === 200)).toBe(true);
    // Others are limited as ever by the same process.
    expect((await exhaust(exempting, '10.51.0.1')).at(-1)).toBe(429);
  });
});

describe('the client address', () => {
  it('believes X-Forwarded-For only from the proxies TRUSTED_PROXIES names', async () => {
    // From loopback, which this process does not trust: every request is loopback's, whatever it says.
    const statuses: number[] = [];
    for (let i = 0; i <= SUGGESTIONS.points; i += 1) {
      statuses.push((await suggest(untrusting, `198.51.100.${(i % 200) + 1}`)).statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
    // The default (loopback trusted) tells those addresses apart: none of them is limited.
    for (let i = 0; i < 5; i += 1) {
      expect((await suggest(market.api, `198.51.100.${i + 1}`)).statusCode).toBe(200);
    }
  });

  it('is refused at start-up when the setting is not a list of addresses', () => {
    expect(() => validateEnvironment({ ...market.test.variables, TRUSTED_PROXIES: 'my-balancer' })).toThrow(
      /TRUSTED_PROXIES/,
    );
    expect(() => validateEnvironment({ ...market.test.variables, RATE_LIMIT_EXEMPT: '10.0.0.0/99' })).toThrow(
      /RATE_LIMIT_EXEMPT/,
    );
  });
});

describe('click-outs', () => {
  it('always go to the store, however many one address makes', async () => {
    const { couponId } = await merchantWithCoupon(market);
    await approve(market, couponId);
    for (let i = 0; i < 100; i += 1) {
      const answer = await send(market.api.baseUrl, {
        method: 'GET',
        url: `/api/out/${couponId}`,
        headers: { 'x-forwarded-for': '203.0.113.40' },
      });
      expect(answer.statusCode).toBe(302);
    }
  });
});
