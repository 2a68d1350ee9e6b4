import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Environment, OperationsService } from '@offers/api/platform';
import { CouponListingProjection } from '@offers/workers/consumers';
import { MailConsumer } from '@offers/workers/mail';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { createLedgerTables, RecordEntry, TroubledConsumer } from '../support/ledger.js';
import {
  approve,
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilListed,
} from '../support/marketplace.js';
import { ROOT } from '../support/processes.js';
import { createTestEnvironment, eventually } from '../support/test-environment.js';
import { serveSite } from '../support/web-public.js';
import { startWorkers } from '../support/workers-app.js';

/**
 * The value of one series of a Prometheus text exposition: the sample named `name` whose labels
 * include `labels`; undefined when there is none.
 */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

let market: Marketplace;
let apiMetricsUrl: string;
let workersMetricsUrl: string;

const scrape = async (baseUrl: string) => {
  const response = await send(baseUrl, { method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
};

beforeAll(async () => {
  market = await startMarketplace('metrics', {
    roles: ['relay', 'events'],
    consumers: [CouponListingProjection, MailConsumer],
  });
  apiMetricsUrl = market.api.app.get(OperationsService).server.url!;
  workersMetricsUrl = market.workers.module.get(OperationsService).server.url!;
});

afterAll(async () => {
  await market?.close();
});

describe('/metrics', () => {
  it('exposes request durations by route, cache hits, the database, the outbox and the queues on the API', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const couponId = await submitCoupon(market, session);
    expect((await approve(market, couponId)).statusCode).toBe(200);
    await untilListed(market, couponId);
    for (let i = 0; i < 3; i += 1)
      await market.api.http.inject({ method: 'GET', url: '/api/coupons?perPage=100' });
    await market.api.http.inject({ method: 'GET', url: '/api/no-such-route' });

    const text = await scrape(apiMetricsUrl);
    const approvals = { route: '/api/admin/coupons/:id/approve', method: 'POST', status_code: '200' };
    expect(sample(text, 'offers_http_request_duration_seconds_count', approvals)).toBe(1);
    expect(sample(text, 'offers_http_request_duration_seconds_bucket', { ...approvals, le: '+Inf' })).toBe(1);
    expect(
      sample(text, 'offers_http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' }),
    ).toBe(1);
    // No series per address: the route's pattern only.
    expect(text).not.toContain(`/api/admin/coupons/${couponId}/approve`);
    expect(
      sample(text, 'offers_cache_requests_total', { cache: 'listings', result: 'hit' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'offers_cache_requests_total', { cache: 'listings', result: 'miss' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'offers_database_up', { process: 'api' })).toBe(1);
    expect(sample(text, 'offers_redis_up')).toBe(1);
    expect(sample(text, 'offers_database_pool_connections', { pool: 'access', state: 'max' })).toBe(4);
    expect(sample(text, 'offers_outbox_events', { state: 'unpublished' })).toEqual(expect.any(Number));
    expect(sample(text, 'offers_outbox_oldest_seconds', { state: 'unprocessed' })).toEqual(
      expect.any(Number),
    );
    expect(sample(text, 'offers_queue_jobs', { queue: 'domain-events', state: 'waiting' })).toEqual(
      expect.any(Number),
    );
    expect(sample(text, 'offers_process_cpu_seconds_total', { process: 'api' })).toBeGreaterThan(0);

    // Ready answers, written before Fastify routes the request, are counted under their route too.
    const lists = { route: '/api/coupons', method: 'GET', status_code: '200' };
    const before = sample(text, 'offers_http_request_duration_seconds_count', lists) ?? 0;
    for (let i = 0; i < 3; i += 1)
      await market.api.http.inject({ method: 'GET', url: '/api/coupons?perPage=7' });
    const after = sample(await scrape(apiMetricsUrl), 'offers_http_request_duration_seconds_count', lists);
    expect(after! - before).toBe(3);
  });

  it('exposes event lag and applied events per consumer, and mails sent, on the workers', async () => {
    // A merchant registration is mailed, an approval projected: both by this workers process.
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const couponId = await submitCoupon(market, session);
    expect((await approve(market, couponId)).statusCode).toBe(200);
    await untilListed(market, couponId);

    const text = await eventually(async () => {
      const body = await scrape(workersMetricsUrl);
      return (sample(body, 'offers_mails_sent_total') ?? 0) >= 1 && body;
    }, 'a mail to be sent');
    const listings = { consumer: 'coupon-listings', process: 'workers' };
    expect(sample(text, 'offers_events_applied_total', listings)).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'offers_event_lag_seconds_count', listings)).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'offers_event_lag_seconds_sum', listings)).toBeGreaterThan(0);
    expect(sample(text, 'offers_events_applied_total', { consumer: 'mail' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'offers_outbox_events', { state: 'failed', process: 'workers' })).toBe(0);
  });

  it('keeps the Grafana dashboard and the Prometheus targets true to what the processes expose', async () => {
    const dashboard = JSON.parse(
      readFileSync(join(ROOT, 'monitoring/grafana/dashboards/offers-operations.json'), 'utf8'),
    );
    const charted = new Set<string>(
      dashboard.panels.flatMap((panel: { targets: Array<{ expr: string }> }) =>
        panel.targets.flatMap(({ expr }) => [...expr.matchAll(/offers_\w+/g)].map(([name]) => name)),
      ),
    );
    expect(charted.size).toBeGreaterThan(10);
    // The public site's server too, as the site's tests start it.
    const site = await serveSite(market);
    let exposed: string;
    try {
      exposed = [
        await scrape(apiMetricsUrl),
        await scrape(workersMetricsUrl),
        await scrape(site.operationsUrl),
      ].join('\n');
    } finally {
      await site.close();
    }
    // Declared (a counter never incremented has no sample yet); histograms by their base name.
    const declared = (name: string) =>
      new RegExp(`^# TYPE ${name.replace(/_(bucket|count|sum)$/, '')} `, 'm').test(exposed);
    const missing = [...charted].filter((name) => !declared(name));
    expect(missing).toEqual([]);

    const prometheus = readFileSync(join(ROOT, 'monitoring/prometheus/prometheus.yml'), 'utf8');
    const defaults = new Environment();
    expect(prometheus).toContain(`"api:${defaults.API_OPERATIONS_PORT}"`);
    expect(prometheus).toContain(`"workers:${defaults.WORKERS_OPERATIONS_PORT}"`);
    expect(prometheus).toContain(`"web-public:${defaults.WEB_OPERATIONS_PORT}"`);
  });

  it('counts consumer failures and events given up', async () => {
    const test = await createTestEnvironment('metrics failures');
    const workers = await startWorkers(test.environment, ['relay', 'events'], [TroubledConsumer]);
    try {
      await createLedgerTables(workers.dataSource);
      await workers.commands.execute(new RecordEntry(13)); // always fails (3 attempts in tests)
      const url = workers.module.get(OperationsService).server.url!;
      const text = await eventually(async () => {
        const body = await scrape(url);
        return sample(body, 'offers_events_failed_total', { type: 'EntryRecorded' }) === 1 && body;
      }, 'the event to be given up');
      expect(sample(text, 'offers_event_consumer_failures_total', { consumer: 'troubled-consumer' })).toBe(3);
      expect(sample(text, 'offers_outbox_events', { state: 'failed' })).toBe(1);
    } finally {
      await workers.close();
      await test.cleanup();
    }
  });
});
