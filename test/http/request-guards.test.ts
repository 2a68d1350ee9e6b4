import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HTTP_MESSAGES, JSON_MAX_DEPTH } from '@offers/api/rules';
import { registerAndSignInUser, userRegistration } from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { type Marketplace, merchantWithCoupon, startMarketplace } from '../support/marketplace.js';

/** Cross-site requests, form bodies, deep JSON, nulls and list bounds: refused with a clear 4xx. */
let market: Marketplace;

beforeAll(async () => {
  market = await startMarketplace('request guards');
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const URLENCODED = { 'content-type': 'application/x-www-form-urlencoded' };

describe('cross-site requests', () => {
  it('refuses an HTML form on another site signing a visitor into the attacker account', async () => {
    const { registration } = await registerAndSignInUser(market.api.baseUrl);
    const credentials = {
      email: registration.email,
      userName: registration.userName,
      password: registration.password,
    };

    const crossSiteForm = await inject(
      'POST',
      '/api/auth/users/login',
      { ...URLENCODED, origin: 'https://evil.example' },
      form(credentials),
    );
    const sameSiteForm = await inject('POST', '/api/auth/users/login', URLENCODED, form(credentials));
    const crossSiteJson = await inject(
      'POST',
      '/api/auth/users/login',
      { origin: 'https://evil.example' },
      credentials,
    );

    expect(crossSiteForm.statusCode).toBe(403);
    expect(crossSiteForm.headers['set-cookie']).toBeUndefined();
    expect(sameSiteForm.statusCode).toBe(415);
    expect(sameSiteForm.json()).toEqual({ statusCode: 415, message: HTTP_MESSAGES.unsupportedBody });
    expect(crossSiteJson.statusCode).toBe(403);
    expect(crossSiteJson.json()).toEqual({ statusCode: 403, message: HTTP_MESSAGES.crossSite });
  });

  it.each([
    ['/api/contact', { name: 'Eve', email: 'eve@example.in', msg: 'Hello' }],
    ['/api/newsletter', { email: 'eve@example.in' }],
    ['/api/auth/users/register', userRegistration()],
    ['/api/auth/merchants/register', { userName: 'someone', password: 'nope1234' }],
    ['/api/auth/merchants/login', { userName: 'someone', password: 'nope1234' }],
    ['/api/auth/admin/login', { username: 'admin', password: 'nope1234' }],
    ['/api/auth/password/forgot', { email: 'eve@example.in', role: 'user' }],
  ])('refuses urlencoded and text bodies and other sites on %s', async (url, fields) => {
    const urlencoded = await inject('POST', url, URLENCODED, form(fields as Record<string, string>));
    const text = await inject('POST', url, { 'content-type': 'text/plain' }, JSON.stringify(fields));
    const crossSite = await inject('POST', url, { origin: 'http://localhost:9999' }, fields);

    expect(urlencoded.statusCode).toBe(415);
    expect(text.statusCode).toBe(415);
    expect(crossSite.statusCode).toBe(403);
  });

  it('uses the Referer when there is no Origin, and lets requests with neither through', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    const change = { address: '9 Hill Road, Pune' };
    const put = (headers: Record<string, string>) => inject('PUT', '/api/me/profile', headers, change);

    const evilReferer = await put({ ...session.browser, referer: 'https://evil.example/page' });
    const nullOrigin = await put({ ...session.browser, origin: 'null' });
    const publicSite = await put({ ...session.browser, origin: 'http://localhost:5173' });
    const backOffice = await put({ ...session.browser, referer: 'http://localhost:5174/#/profile' });
    const apiClient = await put(session.bearer);
    const reading = await inject('GET', '/api/me/profile', {
      ...session.bearer,
      origin: 'https://evil.example',
    });

    expect(evilReferer.statusCode).toBe(403);
    expect(nullOrigin.statusCode).toBe(403);
    expect(publicSite.statusCode).toBe(200);
    expect(backOffice.statusCode).toBe(200);
    expect(apiClient.statusCode).toBe(200);
    expect(reading.statusCode).toBe(200);
  });

  it('accepts a page served on its own origin through a trusted proxy', async () => {
    const response = await inject(
      'POST',
      '/api/newsletter',
      { origin: 'http://shop.test:8080', 'x-forwarded-host': 'shop.test:8080', 'x-forwarded-proto': 'http' },
      { email: 'proxy@example.in' },
    );
    expect(response.statusCode).toBe(202);
  });

  it("lets react-admin's DELETE through: it says text/plain but sends no body", async () => {
    const { merchant, couponId } = await merchantWithCoupon(market);
    const response = await inject('DELETE', `/api/merchant/coupons/${couponId}`, {
      ...merchant.bearer,
      'content-type': 'text/plain',
    });
    expect(response.statusCode).toBe(200);
  });

  it('still takes the one-click unsubscription mail providers post as a form', async () => {
    const response = await inject(
      'POST',
      '/api/newsletter/unsubscribe?token=nonsense',
      URLENCODED,
      'List-Unsubscribe=One-Click',
    );
    expect(response.statusCode).toBe(400);
  });
});

describe('bodies', () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const nestedArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const JSON_TYPE = { 'content-type': 'application/json' };

  it.each([
    '/api/auth/users/login',
    '/api/contact',
    '/api/me/profile',
    '/api/merchant/coupons',
    '/api/nowhere',
  ])('answers 400 to JSON nested too deeply on %s', async (url) => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    const method = url.includes('/me/') ? 'PUT' : 'POST';
    for (const body of [nested(5_000), nestedArray(5_000), nested(JSON_MAX_DEPTH + 1)]) {
      const response = await inject(method, url, { ...JSON_TYPE, ...session.bearer }, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(HTTP_MESSAGES.tooDeep);
    }
  });

  it('counts brackets inside strings as text, not nesting', async () => {
    const response = await inject('POST', '/api/contact', JSON_TYPE, {
      name: 'Bo',
      email: 'bo@example.in',
      msg: `${'['.repeat(500)} "\\" {`,
    });
    expect(response.statusCode).toBe(201);
  });

  it('refuses null for a field that may be left out, naming it', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    const { merchant, couponId } = await merchantWithCoupon(market);

    const profile = await inject('PUT', '/api/me/profile', session.bearer, { userName: null });
    const coupon = await inject('PUT', `/api/merchant/coupons/${couponId}`, merchant.bearer, { title: null });
    const category = await inject('POST', '/api/merchant/categories', merchant.bearer, {
      categoryName: 'Gifts',
      isActive: null,
    });

    expect(profile.statusCode).toBe(400);
    expect(profile.json().errors).toEqual({ userName: [HTTP_MESSAGES.notNull('userName')] });
    expect(coupon.statusCode).toBe(400);
    expect(coupon.json().errors).toEqual({ title: [HTTP_MESSAGES.notNull('title')] });
    expect(category.statusCode).toBe(400);
    expect(category.json().errors).toEqual({ isActive: [HTTP_MESSAGES.notNull('isActive')] });
    expect((await inject('GET', '/api/me/profile', session.bearer)).json().userName).toBe('Asha Rao');
  });
});

describe('NUL characters and lone surrogates', () => {
  const refused = (response: { statusCode: number; json(): unknown }) => {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message: HTTP_MESSAGES.unreadableText });
  };
  // As sent in JSON: the escapes arrive as text and become the characters once parsed.
  const json = (text: string) => ({ headers: { 'content-type': 'application/json' }, payload: text });

  it.each([
    '/api/referral-codes/%00',
    '/api/stores/%00',
    '/api/stores/a%ED%A0%80',
    '/api/coupons?q=%00',
    '/api/coupons?q=%ED%A0%80',
    '/api/coupons?q=%FF',
    '/api/coupons?q%00=1',
    '/api/search/suggest?q=a%00b',
  ])('answers 400 to %s', async (url) => {
    refused(await inject('GET', url));
  });

  it('answers 400 over the socket too, where ready public reads are answered before routing', async () => {
    // Kept ready first, so the fast path holds answers for these routes.
    for (const url of ['/api/coupons', '/api/home']) await send(market.api.baseUrl, { method: 'GET', url });
    for (const url of [
      '/api/coupons?q=%00',
      '/api/coupons?%ED%A0%80',
      '/api/stores/%00',
      '/api/stores/%ED%A0%80',
    ]) {
      const response = await send(market.api.baseUrl, { method: 'GET', url });
      expect([url, response.statusCode]).toEqual([url, 400]);
      expect(JSON.parse(response.body).message).toBe(HTTP_MESSAGES.unreadableText);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('refuses them in any string of a JSON body, keys too, and changes nothing', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    const { merchant } = await merchantWithCoupon(market);
    const cases = [
      ['PUT', '/api/me/profile', session.bearer, '{"userName":"Asha\\u0000"}'],
      ['PUT', '/api/me/profile', session.bearer, '{"userName":"Asha\\ud800"}'],
      ['PUT', '/api/merchant/profile', merchant.bearer, '{"merchantName":"Shop\\u0000"}'],
      ['POST', '/api/contact', {}, '{"name":"N\\u0000","email":"n@example.in","msg":"Hi"}'],
      ['POST', '/api/contact', {}, '{"name":"N","email":"a\\ud800@b.co","msg":"Hi"}'],
      ['POST', '/api/auth/admin/login', {}, '{"username":"admin","email":"a\\ud800@b.co","password":"x"}'],
      ['POST', '/api/contact', {}, '{"name":"N","email":"n@example.in","msg":"Hi","x\\u0000":1}'],
      ['POST', '/api/contact', {}, '{"name":"N","email":"n@example.in","msg":["Hi",{"a":"\\udfff"}]}'],
    ] as const;
    for (const [method, url, headers, body] of cases) {
      const { headers: type, payload } = json(body);
      refused(await inject(method, url, { ...type, ...headers }, payload));
    }
    expect((await inject('GET', '/api/me/profile', session.bearer)).json().userName).toBe('Asha Rao');
    const [{ messages }] = await market.api.dataSource.query(
      "SELECT count(*)::int AS messages FROM contact_messages WHERE email = 'n@example.in'",
    );
    expect(messages).toBe(0);
  });

  it('still takes whole characters: a pair of surrogates, Hindi, an escaped slash', async () => {
    const response = await inject(
      'POST',
      '/api/contact',
      { 'content-type': 'application/json' },
      '{"name":"\\ud83d\\ude00 आशा","email":"asha@example.in","msg":"a\\/b"}',
    );
    expect(response.statusCode).toBe(201);
    expect((await inject('GET', `/api/coupons?q=${encodeURIComponent('आशा 😀')}`)).statusCode).toBe(200);
  });

  it('refuses them in multipart fields, as in JSON', async () => {
    const { merchant } = await merchantWithCoupon(market);
    const boundary = 'odd-boundary';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="storeName"',
      '',
      'Shop\u0000',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    refused(
      await inject(
        'PUT',
        '/api/merchant/store',
        { ...merchant.bearer, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      ),
    );
  });

  it('refuses them in the URL-encoded forms the signed unsubscribe links take', async () => {
    refused(await inject('POST', '/api/newsletter/unsubscribe?token=x', URLENCODED, 'List-Unsubscribe=%00'));
  });
});

describe('react-admin lists', () => {
  it.each([
    '?range=[1e300,1e300]',
    '?range=[0,1000000]',
    '?range=[100001,100010]',
    '?range=[9007199254740991,9007199254740992]',
  ])('answers 400 to %s', async (query) => {
    const response = await inject('GET', `/api/admin/coupons${query}`, market.admin);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(HTTP_MESSAGES.listBounds);
  });

  it('still serves what react-admin asks for, its export included', async () => {
    expect((await inject('GET', '/api/admin/coupons?range=[0,24]', market.admin)).statusCode).toBe(200);
    expect((await inject('GET', '/api/admin/coupons?range=[0,999]', market.admin)).statusCode).toBe(200);
  });
});
