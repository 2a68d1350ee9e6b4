import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { type RouteSummary, registeredRoutes } from '@offers/api/infrastructure/http/configure-app';
import { HTTP_MESSAGES } from '@offers/api/rules/http';
import { registerAndSignInMerchant, registerAndSignInUser } from '../support/accounts.js';
import { ONE_PIXEL_PNG } from '../support/coupons.js';
import { type Marketplace, merchantWithCoupon, startMarketplace } from '../support/marketplace.js';

/**
 * Whatever a caller sends, to whichever route, as whoever: never a 5xx. Routes are enumerated,
 * so new ones are covered as they come.
 */
let market: Marketplace;
let routes: RouteSummary[];
/** Per route (`POST /api/contact`), the names of its body's fields, as the OpenAPI document gives them. */
let documentedFields: Map<string, string[]>;
/** Every body field any documented route names: sent at once to routes whose body is not documented. */
let anyFields: string[];
const callers: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  // Thousands of requests from this machine: the per-address limits would answer many of them 429
  // before their input was read, which is not what this file checks (test/http/rate-limits.test.ts does).
  market = await startMarketplace('robustness', { settings: { RATE_LIMIT_EXEMPT: 'loopback' } });
  callers.visitor = {};
  callers.user = (await registerAndSignInUser(market.api.baseUrl)).session.bearer;
  const merchant = await merchantWithCoupon(market);
  callers.merchant = merchant.merchant.bearer;
  // Store records of this merchant with id 1, so odd bodies reach their forms, not just a 404.
  await storefrontRecords(market, callers.merchant);
  callers.otherMerchant = (await registerAndSignInMerchant(market.api.baseUrl)).session.bearer;
  callers.admin = market.admin;
  // Routes that end the caller's session go last, so every other route still meets a signed-in caller.
  const endsSession = (route: RouteSummary) =>
    (route.method === 'POST' && route.url === '/api/auth/logout') ||
    (route.method === 'DELETE' && route.url.endsWith('/sessions'));
  routes = registeredRoutes(market.api.app)
    .filter(
      (route) =>
        route.method !== 'HEAD' && route.url.startsWith('/api') && !route.url.startsWith('/api/docs'),
    )
    .sort((a, b) => Number(endsSession(a)) - Number(endsSession(b)));
  ({ documentedFields, anyFields } = await bodyFields(market));
});

/** The body fields of each route, read from the OpenAPI document (its schemas and their `$ref`s). */
async function bodyFields(marketplace: Marketplace) {
  const document = (
    await marketplace.api.http.inject({ method: 'GET', url: '/api/docs/openapi.json' })
  ).json();
  type Schema = { $ref?: string; properties?: Record<string, unknown>; allOf?: Schema[] };
  const resolve = (schema: Schema | undefined): string[] => {
    if (!schema) return [];
    if (schema.$ref) return resolve(document.components.schemas[schema.$ref.split('/').pop()!]);
    return [...Object.keys(schema.properties ?? {}), ...(schema.allOf ?? []).flatMap(resolve)];
  };
  const fields = new Map<string, string[]>();
  for (const [path, operations] of Object.entries<Record<string, { requestBody?: { content?: object } }>>(
    document.paths,
  )) {
    for (const [method, operation] of Object.entries(operations)) {
      const content = Object.values(operation.requestBody?.content ?? {}) as Array<{ schema?: Schema }>;
      const names = [...new Set(content.flatMap((type) => resolve(type.schema)))];
      if (names.length > 0) fields.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, names);
    }
  }
  expect(fields.size).toBeGreaterThan(20);
  return { documentedFields: fields, anyFields: [...new Set([...fields.values()].flat())] };
}

async function storefrontRecords(marketplace: Marketplace, headers: Record<string, string>) {
  const inject = async (method: string, url: string, payload: unknown) => {
    const response = await marketplace.api.http.inject({ method, url, headers, payload });
    if (response.statusCode >= 300) throw new Error(`${url} fixture not made: ${response.body}`);
    return response.json();
  };
  await inject('PUT', '/api/merchant/store', { storeName: 'Odd inputs' });
  const category = await inject('POST', '/api/merchant/categories', { categoryName: 'Odd inputs' });
  await inject('POST', '/api/merchant/products', {
    categoryId: category.id,
    productName: 'Odd inputs',
    price: '1',
    imageLarge: ONE_PIXEL_PNG.toString('base64'),
  });
}

afterAll(async () => {
  await market?.close();
});

const IDS = ['1', '0', '-1', '2147483648', '99999999999999999999', 'abc', '1.5', '%00', "1'--"];
const QUERIES = [
  '',
  '?range=[0,',
  '?sort={"a":1}&range=[5,1]&filter=[]',
  '?filter={"status":{"$ne":1}}&range=[0,1000000]',
  '?page=-1&perPage=0',
  '?page=999999&perPage=100&sort=az',
  `?category=a,b&merchant=x&q=${encodeURIComponent("'); DROP TABLE coupons;--")}`,
  '?mobile=12345678901234567890&token[]=x',
  '?range=[1e300,1e300]',
  '?range=[9007199254740991,9007199254740992]&page=1e300&perPage=1e300',
];
const BODIES: unknown[] = [
  undefined,
  null,
  [],
  'just text',
  42,
  { a: { b: { c: 1 } } },
  { title: 'x'.repeat(100_000) },
  { slotId: '1e309', reason: ['a'], percentage: { $gt: 0 }, categoryIds: 'x', expiryDate: '9999-99-99' },
  // JSON nested 5,000 deep (sent as text, with a JSON content type).
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
  // null for a field each kind of update knows.
  { userName: null },
  { merchantName: null },
  { title: null },
  { productName: null },
  { categoryName: null },
  { storeName: null },
  { name: null, isActive: null },
  { currentPassword: null, newPassword: null },
];

/** Each odd id, each odd query and each odd body, one at a time, on an otherwise plain request. */
function cases(route: RouteSummary): Array<{ url: string; payload: unknown }> {
  const withId = (id: string) => route.url.replace(/:[^/]+/g, encodeURIComponent(id)).replace(/\*$/, 'x');
  const plain = withId('1');
  const takesBody = !['GET', 'DELETE'].includes(route.method);
  return [
    ...(route.url.includes(':')
      ? IDS.map((id) => ({ url: withId(id), payload: takesBody ? {} : undefined }))
      : []),
    ...QUERIES.map((query) => ({ url: plain + query, payload: takesBody ? {} : undefined })),
    ...(takesBody ? BODIES.map((payload) => ({ url: plain, payload })) : []),
  ];
}

/**
 * Text no field can take, as JSON sends it (parsed into the characters) and as an address carries it
 * (percent-encoded: a NUL, and the UTF-8 form of a lone surrogate, which is no UTF-8 at all).
 */
const UNREADABLE_STRINGS = ['a\u0000b', 'a\ud800@b.co', '\udfff'];
const UNREADABLE_ENCODED = ['%00', 'a%00b', '%ED%A0%80'];
/** Query parameters the routes read (lists, search, react-admin, analytics, media, links). */
const QUERY_NAMES = [
  'q',
  'sort',
  'range',
  'filter',
  'page',
  'perPage',
  'category',
  'merchant',
  'position',
  'token',
  'days',
  'couponId',
  'w',
  'ref',
];

/**
 * Each unreadable value in each path parameter, each query parameter and each body field, one at a
 * time on an otherwise plain request: each is refused with the same 400, whoever asks.
 */
function unreadableCases(route: RouteSummary): Array<{ url: string; payload: unknown }> {
  const parameters = route.url.match(/:\w+/g) ?? [];
  const withIds = (values: Record<string, string>) =>
    route.url.replace(/:\w+/g, (name) => values[name] ?? '1').replace(/\*$/, 'x');
  const plain = withIds({});
  const takesBody = !['GET', 'DELETE'].includes(route.method);
  const fields = documentedFields.get(`${route.method} ${route.url}`);
  return [
    ...parameters.flatMap((name) =>
      UNREADABLE_ENCODED.map((value) => ({ url: withIds({ [name]: value }), payload: undefined })),
    ),
    ...QUERY_NAMES.flatMap((name) =>
      UNREADABLE_ENCODED.map((value) => ({ url: `${plain}?${name}=${value}`, payload: undefined })),
    ),
    // A key, as well as a value, is text.
    ...UNREADABLE_ENCODED.map((value) => ({ url: `${plain}?${value}=1`, payload: undefined })),
    ...(!takesBody
      ? []
      : fields
        ? fields.flatMap((field) =>
            UNREADABLE_STRINGS.map((value) => ({ url: plain, payload: { [field]: value } })),
          )
        : UNREADABLE_STRINGS.map((value) => ({
            url: plain,
            payload: Object.fromEntries(anyFields.map((field) => [field, value])),
          }))),
    ...(takesBody ? [{ url: plain, payload: { 'a\u0000': 1, nested: [{ b: '\ud800' }] } }] : []),
  ];
}

it.each(['visitor', 'user', 'merchant', 'otherMerchant', 'admin'])(
  'refuses NUL characters and lone surrogates from the %s on every route with one 400',
  async (who) => {
    const headers = callers[who]!;
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      for (const { url, payload } of unreadableCases(route)) {
        sent += 1;
        const response = await market.api.http.inject({ method: route.method, url, headers, payload });
        // The queue dashboard asks for an admin before its body is read: a visitor's body is refused so.
        const refused =
          (response.statusCode === 400 && response.json().message === HTTP_MESSAGES.unreadableText) ||
          (route.url.startsWith('/api/admin/queues') &&
            payload !== undefined &&
            [401, 403].includes(response.statusCode));
        if (!refused) {
          failures.push(
            `${who} ${route.method} ${url} ${JSON.stringify(payload)?.slice(0, 60)} → ${response.statusCode} ${response.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(sent).toBeGreaterThan(5_000);
    expect(failures).toEqual([]);
  },
  300_000,
);

// One test per caller, so each has its own time budget as the routes grow.
it.each(['visitor', 'user', 'merchant', 'otherMerchant', 'admin'])(
  'answers every route and every odd input from the %s without a server error',
  async (who) => {
    const headers = callers[who]!;
    // An empty list would pass without checking anything.
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const route of routes) {
      for (const { url, payload } of cases(route)) {
        const json = typeof payload === 'string' && /^[[{]/.test(payload);
        const response = await market.api.http.inject({
          method: route.method,
          url,
          headers: json ? { ...headers, 'content-type': 'application/json' } : headers,
          payload,
        });
        if (response.statusCode >= 500) {
          failures.push(
            `${who} ${route.method} ${url} ${JSON.stringify(payload)?.slice(0, 60)} → ${response.statusCode} ${response.body.slice(0, 120)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  },
  300_000,
);
