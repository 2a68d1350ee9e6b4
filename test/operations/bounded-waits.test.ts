import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD } from '@offers/api/identity/admin-seed';
import { OperationsService } from '@offers/api/infrastructure/health/operations.module';
import { SERVICE_BUSY } from '@offers/api/rules/http';
import { BEARER_SIGN_IN, MERCHANT_PASSWORD, registerAndSignInMerchant } from '../support/accounts.js';
import { type ApiApp, type HttpRequest, type HttpResponse, startApi } from '../support/api-app.js';
import { approve, type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';
import { holdTableLock } from '../support/table-lock.js';
import { eventually } from '../support/test-environment.js';

/**
 * Limits small enough to meet in a test: four connections in the main pool, waits of about a
 * second. Every bound below is generous against them; the table lock is held far longer.
 */
const SETTINGS = {
  DATABASE_POOL_SIZE: '4',
  DATABASE_POOL_WAIT_MS: '1000',
  API_LOCK_TIMEOUT_MS: '1500',
  REQUEST_TIMEOUT_MS: '8000',
  READY_MAX_LOCK_WAIT_MS: '200',
};
/** Longest any request may take to get its answer while the lock is held. */
const ANSWER_WITHIN_MS = 8000 + 2000;

let market: Marketplace;
let merchantName: string;
let pendingCoupons: number[];
let liveCoupon: number;

beforeAll(async () => {
  market = await startMarketplace('bounded waits', { settings: SETTINGS });
  const { session, registration } = await registerAndSignInMerchant(market.api.baseUrl);
  merchantName = registration.userName;
  liveCoupon = await submitCoupon(market, session);
  expect((await approve(market, liveCoupon)).statusCode).toBe(200);
  pendingCoupons = [];
  for (let i = 0; i < 4; i += 1) pendingCoupons.push(await submitCoupon(market, session));
});

afterAll(async () => {
  await market?.close();
});

interface Timed {
  response: HttpResponse;
  ms: number;
}

async function timed(api: ApiApp, request: HttpRequest): Promise<Timed> {
  const started = Date.now();
  const response = await api.http.inject(request);
  return { response, ms: Date.now() - started };
}

const signInAdmin = (api: ApiApp) =>
  api.http.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    headers: BEARER_SIGN_IN,
    payload: { username: 'admin', password: DEVELOPMENT_ADMIN_PASSWORD },
  });

const signInMerchant = (api: ApiApp) =>
  api.http.inject({
    method: 'POST',
    url: '/api/auth/merchants/login',
    headers: BEARER_SIGN_IN,
    payload: { userName: merchantName, password: MERCHANT_PASSWORD },
  });

function expectBusy({ response, ms }: Timed) {
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status: 503,
    body: { statusCode: 503, message: SERVICE_BUSY.message },
  });
  expect(response.headers['retry-after']).toBe(String(SERVICE_BUSY.retryAfterSeconds));
  expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
}

describe('with the coupons table locked', () => {
  it('answers admin lists, approvals and reveals with 503 and Retry-After, and still signs people in', async () => {
    const release = await holdTableLock(market.test.environment.DATABASE_URL, 'coupons', 'ACCESS EXCLUSIVE');
    // Released after at most 25 s whatever happens, so the old behaviour (waiting for the lock)
    // shows as wrong answers rather than a hung test.
    const safety = setTimeout(() => void release(), 25_000);
    try {
      const crowd = Array.from({ length: 36 }, (_, i): HttpRequest => {
        if (i % 3 === 0) return { method: 'GET', url: '/api/admin/coupons', headers: market.admin };
        if (i % 3 === 1) {
          const couponId = pendingCoupons[i % pendingCoupons.length]!;
          return {
            method: 'POST',
            url: `/api/admin/coupons/${couponId}/approve`,
            headers: market.admin,
            payload: {},
          };
        }
        return {
          method: 'POST',
          url: `/api/coupons/${liveCoupon}/reveal`,
          headers: { 'x-forwarded-for': `10.9.0.${i}` },
        };
      });
      const answers = Promise.all(crowd.map((request) => timed(market.api, request)));
      // The crowd holds (or waits for) every connection of the main pool; sign-in has its own.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const [admin, merchant] = await Promise.all([signInAdmin(market.api), signInMerchant(market.api)]);
      expect(admin.statusCode).toBe(200);
      expect(merchant.statusCode).toBe(200);
      // A signed-in caller is still recognised (its session read on the access pool).
      const me = await market.api.http.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { authorization: `Bearer ${admin.json().token}` },
      });
      expect(me.statusCode).toBe(200);

      // Health tells the truth meanwhile: the database answers, a statement waits on coupons, and
      // callers queue for the main pool.
      const ready = await fetch(`${market.api.app.get(OperationsService).server.url}/health/ready`);
      expect(ready.status).toBe(503);
      // biome-ignore lint/suspicious/noExplicitAny: the report is read loosely
      const report: any = await ready.json();
      expect(report.checks.database).toMatchObject({ up: true, latencyMs: expect.any(Number) });
      expect(report.checks.locks.waiting).toBeGreaterThan(0);
      expect(report.checks.locks.tables).toContain('coupons');
      expect(report.checks.pools.main).toMatchObject({ max: 4, open: 4 });
      expect(report.checks.pools.main.waiting).toBeGreaterThan(0);
      expect(report.checks.pools.access.max).toBe(4);
      expect(report.reasons).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^locks: .*\(.*coupons.*\)$/),
          expect.stringMatching(/^pool main: /),
        ]),
      );
      // A busy pool is not a database that is down: the public health still says so, alone.
      const summary = await market.api.http.inject({ method: 'GET', url: '/api/health' });
      expect(summary.json()).toEqual({ status: 'ok' });
      expect((await market.api.http.inject({ method: 'GET', url: '/api/health/ready' })).json()).toEqual({
        status: 'unavailable',
      });

      const results = await answers;
      for (const result of results) expectBusy(result);
    } finally {
      clearTimeout(safety);
      await release();
    }

    // Nothing was changed by the refused commands, and the same approval goes through now.
    const [{ live }] = await market.api.dataSource.query(
      "SELECT count(*)::int AS live FROM coupons WHERE id = ANY($1) AND status = 'live'",
      [pendingCoupons],
    );
    expect(live).toBe(0);
    expect((await approve(market, pendingCoupons[0]!)).statusCode).toBe(200);
    await eventually(
      async () =>
        (await market.api.http.inject({ method: 'GET', url: '/api/health/ready' })).statusCode === 200,
      'readiness once the lock is gone',
    );
  });

  it('ends a lock wait at the statement timeout when that comes first', async () => {
    const strict = await startApi({
      ...market.test.environment,
      API_STATEMENT_TIMEOUT_MS: 800,
      API_LOCK_TIMEOUT_MS: 60_000,
    });
    const release = await holdTableLock(market.test.environment.DATABASE_URL, 'coupons', 'ACCESS EXCLUSIVE');
    const safety = setTimeout(() => void release(), 25_000);
    try {
      expectBusy(await timed(strict, { method: 'GET', url: '/api/admin/coupons', headers: market.admin }));
    } finally {
      clearTimeout(safety);
      await release();
      await strict.close();
    }
  });

  it('answers 503 at the request timeout when the database waits are longer', async () => {
    const patient = await startApi({
      ...market.test.environment,
      API_STATEMENT_TIMEOUT_MS: 60_000,
      API_LOCK_TIMEOUT_MS: 60_000,
      REQUEST_TIMEOUT_MS: 1000,
    });
    const release = await holdTableLock(market.test.environment.DATABASE_URL, 'coupons', 'ACCESS EXCLUSIVE');
    const safety = setTimeout(() => void release(), 25_000);
    try {
      expectBusy(await timed(patient, { method: 'GET', url: '/api/admin/coupons', headers: market.admin }));
      // The process goes on answering other requests meanwhile.
      expect((await patient.http.inject({ method: 'GET', url: '/api/categories' })).statusCode).toBe(200);
    } finally {
      clearTimeout(safety);
      await release();
      await patient.close();
    }
  });
});
