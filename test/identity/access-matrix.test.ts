import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD, demoSlotsSeed, firstAdminSeed } from '@offers/api/demo';
import { type RouteSummary, registeredRoutes } from '@offers/api/platform';
import { areaRole, type Role } from '@offers/api/read-models';
import {
  BEARER_SIGN_IN,
  registerAndSignInMerchant,
  registerAndSignInUser,
  sessionFrom,
} from '../support/accounts.js';
import { type ApiApp, startApi } from '../support/api-app.js';
import { couponForm, ONE_PIXEL_PNG } from '../support/coupons.js';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';

/**
 * Routes a visitor may call. Anything else the application serves, now or later, must refuse a
 * visitor with 401: adding a public route means adding it here, on purpose.
 */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/health/live',
  'GET /api/health/ready',
  'POST /api/auth/users/register',
  'POST /api/auth/merchants/register',
  'GET /api/auth/confirm-email',
  'POST /api/auth/users/login',
  'POST /api/auth/merchants/login',
  'POST /api/auth/admin/login',
  'POST /api/auth/password/forgot',
  'POST /api/auth/password/reset',
  'GET /api/referral-codes/:code',
  'GET /api/coupons',
  'POST /api/coupons/:id/reveal',
  'POST /api/coupons/:id/votes',
  'GET /api/search/suggest',
  'GET /api/categories',
  'GET /api/media/:id',
  'GET /api/home',
  'GET /api/heroes',
  'GET /api/banners',
  'GET /api/flash-text',
  'GET /api/stores',
  'GET /api/stores/:store',
  'GET /api/MerchantPage/GetMerchantStore/:id',
  'POST /api/newsletter',
  'GET /api/newsletter/confirm',
  'GET /api/newsletter/unsubscribe',
  'POST /api/newsletter/unsubscribe',
  'GET /api/follows/unsubscribe',
  'POST /api/follows/unsubscribe',
  'POST /api/contact',
  'POST /api/postbacks/purchases',
  // Networks' postbacks: the source's secret as their token (test/feeds/network-postbacks.test.ts).
  'GET /api/postbacks/networks/:sourceId',
  'POST /api/postbacks/networks/:sourceId',
  'GET /api/out/:couponId',
  // A claim's private invoice: its shopper and admins see it, anyone else is told there is none
  // (404, never 401: the answer says nothing of whether it exists; test/claims/claims.test.ts).
  'GET /api/claim-invoices/:claimId',
  // A grievance about personal data may be filed signed in or not (test/privacy/your-data.test.ts).
  'POST /api/grievances',
  // The mailed deletion links: the token is the authority, as with the newsletter's links
  // (test/privacy/account-deletion.test.ts).
  'GET /api/account-deletion/confirm',
  'POST /api/account-deletion/confirm',
  'GET /api/account-deletion/cancel',
  'POST /api/account-deletion/cancel',
]);
const PUBLIC_PREFIXES = ['/api/docs'];

interface OwnedRecord {
  id: number;
  /** The record as stored, to prove a refused request changed nothing. */
  snapshot(): Promise<unknown>;
}

/** A slot of its own: the matrix's calls may delete the seeded ones. */
async function aSlot(): Promise<number> {
  const [slot] = await api.dataSource.query(
    "INSERT INTO slots (name, kind, capacity) VALUES ('Matrix ' || gen_random_uuid(), 'free', 10) RETURNING id",
  );
  return slot.id;
}

/** Makes a coupon of another merchant. */
async function otherMerchantsCoupon(): Promise<OwnedRecord> {
  const { session } = await registerAndSignInMerchant(api.baseUrl);
  const created = await api.http.inject({
    method: 'POST',
    url: '/api/merchant/coupons',
    headers: session.bearer,
    payload: couponForm({ requestedSlotId: await aSlot() }),
  });
  if (created.statusCode !== 201) throw new Error(`coupon not created: ${created.body}`);
  const id = created.json().id;
  return { id, snapshot: () => api.dataSource.query('SELECT * FROM coupons WHERE id = $1', [id]) };
}

/** Makes a store category of another merchant. */
async function otherMerchantsCategory(): Promise<OwnedRecord> {
  const { session } = await registerAndSignInMerchant(api.baseUrl);
  const created = await api.http.inject({
    method: 'POST',
    url: '/api/merchant/categories',
    headers: session.bearer,
    payload: { categoryName: `Matrix ${Math.random()}` },
  });
  if (created.statusCode !== 201) throw new Error(`category not created: ${created.body}`);
  const id = created.json().id;
  return {
    id,
    snapshot: () => api.dataSource.query('SELECT * FROM merchant_categories WHERE id = $1', [id]),
  };
}

/** Makes a product of another merchant. */
async function otherMerchantsProduct(): Promise<OwnedRecord> {
  const { session } = await registerAndSignInMerchant(api.baseUrl);
  const created = await api.http.inject({
    method: 'POST',
    url: '/api/merchant/products/simple',
    headers: session.bearer,
    payload: { productName: 'Matrix serum', price: '10', productImage: ONE_PIXEL_PNG.toString('base64') },
  });
  if (created.statusCode !== 201) throw new Error(`product not created: ${created.body}`);
  const id = created.json().id;
  return { id, snapshot: () => api.dataSource.query('SELECT * FROM products WHERE id = $1', [id]) };
}

/**
 * For each merchant route that names a record, how to make a record of another merchant.
 * A merchant route with a parameter and no entry here fails the matrix.
 */
const OWNED_RECORD_FIXTURES: Record<string, () => Promise<OwnedRecord>> = {
  'GET /api/merchant/coupons/:id': otherMerchantsCoupon,
  'PUT /api/merchant/coupons/:id': otherMerchantsCoupon,
  'DELETE /api/merchant/coupons/:id': otherMerchantsCoupon,
  'GET /api/merchant/categories/:id': otherMerchantsCategory,
  'PUT /api/merchant/categories/:id': otherMerchantsCategory,
  'DELETE /api/merchant/categories/:id': otherMerchantsCategory,
  'GET /api/merchant/products/:id': otherMerchantsProduct,
  'PUT /api/merchant/products/:id': otherMerchantsProduct,
  'DELETE /api/merchant/products/:id': otherMerchantsProduct,
};

let test: TestEnvironment;
let api: ApiApp;
let routes: RouteSummary[];
const bearers = {} as Record<Role, Record<string, string>>;

beforeAll(async () => {
  test = await createTestEnvironment('access matrix');
  api = await startApi(test.environment);
  await firstAdminSeed.run(api.dataSource, test.environment);
  await demoSlotsSeed.run(api.dataSource, test.environment);
  bearers.user = (await registerAndSignInUser(api.baseUrl)).session.bearer;
  bearers.merchant = (await registerAndSignInMerchant(api.baseUrl)).session.bearer;
  const admin = await api.http.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    headers: BEARER_SIGN_IN,
    payload: { username: 'admin', password: DEVELOPMENT_ADMIN_PASSWORD },
  });
  bearers.admin = sessionFrom(admin, admin.json().userId).bearer;
  routes = registeredRoutes(api.app).filter(
    (route) => route.method !== 'HEAD' && route.url.startsWith('/api'),
  );
});

afterAll(async () => {
  await api?.close();
  await test?.cleanup();
});

const label = (route: RouteSummary) => `${route.method} ${route.url}`;
const isPublic = (route: RouteSummary) =>
  PUBLIC_ROUTES.has(label(route)) || PUBLIC_PREFIXES.some((prefix) => route.url.startsWith(prefix));
const concrete = (url: string) => url.replace(/:[^/]+/g, '1').replace(/\*$/, 'x');

/** Routes that end the caller's session (sign out everywhere): their own role calls them with a spare one. */
const ENDS_SESSION = new Set(['DELETE /api/me/sessions', 'DELETE /api/merchant/sessions']);
const spareSession = async (role: Role) =>
  role === 'user'
    ? (await registerAndSignInUser(api.baseUrl)).session.bearer
    : (await registerAndSignInMerchant(api.baseUrl)).session.bearer;

function call(route: RouteSummary, headers: Record<string, string> = {}) {
  const payload = ['GET', 'DELETE', 'OPTIONS'].includes(route.method) ? undefined : {};
  return api.http.inject({ method: route.method, url: concrete(route.url), headers, payload });
}

it('finds the routes by itself', () => {
  const labels = routes.map(label);
  expect(labels).toEqual(
    expect.arrayContaining(['GET /api/me/profile', 'GET /api/merchant/profile', 'GET /api/auth/me']),
  );
  expect(labels.some((text) => text.startsWith('GET /api/admin/queues'))).toBe(true);
});

it('lets a visitor reach the public routes', async () => {
  const open = routes.filter(isPublic);
  const answers = await Promise.all(
    open.map(async (route) => [label(route), (await call(route)).statusCode]),
  );
  expect(answers.filter(([, status]) => status === 401 || status === 403)).toEqual([]);
});

describe('every guarded route', () => {
  it('answers 401 to a visitor', async () => {
    const guarded = routes.filter((route) => !isPublic(route));
    expect(guarded.length).toBeGreaterThan(5);
    const answers = await Promise.all(
      guarded.map(async (route) => [label(route), (await call(route)).statusCode]),
    );
    expect(answers.filter(([, status]) => status !== 401)).toEqual([]);
  });

  it('answers 403 to every role but its own', async () => {
    const wrong: Array<[string, Role, number]> = [];
    for (const route of routes.filter((candidate) => areaRole(candidate.url))) {
      const owner = areaRole(route.url)!;
      for (const role of (['user', 'merchant', 'admin'] as const).filter((other) => other !== owner)) {
        const { statusCode } = await call(route, bearers[role]);
        if (statusCode !== 403) wrong.push([label(route), role, statusCode]);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets its own role through the gate', async () => {
    const refused: Array<[string, number]> = [];
    for (const route of routes.filter((candidate) => areaRole(candidate.url))) {
      const role = areaRole(route.url)!;
      const headers = ENDS_SESSION.has(label(route)) ? await spareSession(role) : bearers[role];
      const { statusCode } = await call(route, headers);
      if (statusCode === 401 || statusCode === 403) refused.push([label(route), statusCode]);
    }
    expect(refused).toEqual([]);
  });

  it('has an ownership check for every merchant route that names a record', () => {
    const named = routes.filter((route) => areaRole(route.url) === 'merchant' && route.url.includes(':'));
    expect(named.map(label).filter((text) => !(text in OWNED_RECORD_FIXTURES))).toEqual([]);
  });

  it.each(Object.entries(OWNED_RECORD_FIXTURES))(
    "%s answers 404 to a merchant for another merchant's record, and changes nothing",
    async (routeLabel, makeRecord) => {
      const record = await makeRecord();
      const before = await record.snapshot();
      const [method, url] = routeLabel.split(' ') as [string, string];

      const response = await api.http.inject({
        method,
        url: url.replace(':id', String(record.id)),
        headers: bearers.merchant,
        payload: method === 'PUT' ? { title: 'Taken over' } : undefined,
      });

      expect(response.statusCode).toBe(404);
      expect(await record.snapshot()).toEqual(before);
    },
  );
});
