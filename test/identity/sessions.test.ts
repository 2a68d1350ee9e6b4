import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD, firstAdminSeed } from '@offers/api/demo';
import { BAD_XSRF_TOKEN, NOT_SIGNED_IN } from '@offers/api/read-models';
import { ADMIN_SIGN_IN, MERCHANT_SIGN_IN, USER_SIGN_IN } from '@offers/api/rules';
import {
  BEARER_SIGN_IN,
  MERCHANT_PASSWORD,
  registerAndSignInMerchant,
  registerAndSignInUser,
  USER_PASSWORD,
} from '../support/accounts.js';
import { type ApiApp, receivedResponses, startApi } from '../support/api-app.js';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';

let test: TestEnvironment;
let api: ApiApp;

beforeAll(async () => {
  test = await createTestEnvironment('sessions');
  api = await startApi(test.environment);
  await firstAdminSeed.run(api.dataSource, test.environment);
});

afterAll(async () => {
  await api?.close();
  await test?.cleanup();
});

const request = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  api.http.inject({ method, url, headers, payload });

let addresses = 0;
/** Failed sign-ins count against the client address too: each test that fails some uses its own. */
function fromNewAddress() {
  addresses += 1;
  return { 'x-forwarded-for': `10.20.0.${addresses}` };
}

describe('signing in', () => {
  it('gives a browser an httpOnly Lax session cookie and a readable XSRF cookie, and no bearer token', async () => {
    const { registration, session } = await registerAndSignInUser(api.baseUrl);
    const credentials = {
      email: registration.email,
      userName: registration.userName,
      password: USER_PASSWORD,
    };
    const signIn = await request('POST', '/api/auth/users/login', {}, credentials);
    const apiClient = await request('POST', '/api/auth/users/login', BEARER_SIGN_IN, credentials);

    expect(signIn.statusCode).toBe(200);
    expect(signIn.json()).toMatchObject({ userId: session.id, xsrfToken: expect.any(String) });
    expect(signIn.json()).not.toHaveProperty('token');
    expect(apiClient.json()).toMatchObject({ userId: session.id, token: expect.any(String) });
    const byToken = await request('GET', '/api/auth/me', {
      authorization: `Bearer ${apiClient.json().token}`,
    });
    expect(byToken.json()).toMatchObject({ role: 'user', id: session.id });
    const cookies = [signIn.headers['set-cookie']].flat().join('\n');
    expect(cookies).toMatch(/session=[\w-]+;.*HttpOnly.*SameSite=Lax/);
    expect(cookies).toMatch(/XSRF-TOKEN=[\w-]+;/);
    expect(cookies).not.toMatch(/XSRF-TOKEN=[^\n]*HttpOnly/);
  });

  it('answers who is signed in', async () => {
    const { session } = await registerAndSignInMerchant(api.baseUrl, { merchantName: 'Glow Cosmetics' });

    const me = await request('GET', '/api/auth/me', session.bearer);

    expect(me.json()).toEqual({ role: 'merchant', id: session.id, name: 'Glow Cosmetics' });
  });

  it('fails a wrong password and an unknown account alike', async () => {
    const { registration } = await registerAndSignInUser(api.baseUrl);
    const from = fromNewAddress();
    const wrongPassword = await request('POST', '/api/auth/users/login', from, {
      email: registration.email,
      userName: registration.userName,
      password: 'Wrong@2026',
    });
    const unknown = await request('POST', '/api/auth/users/login', from, {
      email: 'nobody@example.in',
      userName: registration.userName,
      password: 'Wrong@2026',
    });
    const unknownMobile = await request('POST', '/api/auth/users/login', from, {
      emailOrMobile: '6000000001',
      password: USER_PASSWORD,
    });

    for (const response of [wrongPassword, unknown, unknownMobile]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ statusCode: 401, message: USER_SIGN_IN.failed });
    }
  });

  it('signs in merchants and admins with their own messages on failure', async () => {
    const { registration } = await registerAndSignInMerchant(api.baseUrl);
    const merchant = await request(
      'POST',
      '/api/auth/merchants/login',
      {},
      {
        userName: registration.userName.toUpperCase(),
        password: MERCHANT_PASSWORD,
      },
    );
    const badMerchant = await request('POST', '/api/auth/merchants/login', fromNewAddress(), {
      userName: registration.userName,
      password: 'nope1234',
    });
    const admin = await request(
      'POST',
      '/api/auth/admin/login',
      {},
      {
        username: 'admin',
        email: 'admin@offers.localhost',
        password: DEVELOPMENT_ADMIN_PASSWORD,
      },
    );
    const adminWrongEmail = await request('POST', '/api/auth/admin/login', fromNewAddress(), {
      username: 'admin',
      email: 'other@offers.localhost',
      password: DEVELOPMENT_ADMIN_PASSWORD,
    });

    expect(merchant.json()).toMatchObject({
      message: MERCHANT_SIGN_IN.success,
      merchantId: expect.any(Number),
    });
    expect(badMerchant.json()).toEqual({ statusCode: 401, message: MERCHANT_SIGN_IN.failed });
    expect(admin.statusCode).toBe(200);
    expect(adminWrongEmail.json()).toEqual({ statusCode: 401, message: ADMIN_SIGN_IN.failed });
  });
});

describe('cross-site request forgery', () => {
  it('refuses a cookie-authenticated change without the XSRF header, accepts it with', async () => {
    const { session } = await registerAndSignInUser(api.baseUrl);
    const change = { address: '7 Lake View, Hyderabad' };

    const withoutHeader = await request('PUT', '/api/me/profile', { cookie: session.cookie }, change);
    const wrongHeader = await request(
      'PUT',
      '/api/me/profile',
      { cookie: session.cookie, 'x-xsrf-token': 'guess' },
      change,
    );
    const unchanged = await request('GET', '/api/me/profile', { cookie: session.cookie });
    const withHeader = await request('PUT', '/api/me/profile', session.browser, change);
    const bearer = await request('PUT', '/api/me/profile', session.bearer, {
      address: '8 Lake View, Hyderabad',
    });

    expect(withoutHeader.statusCode).toBe(403);
    expect(withoutHeader.json().message).toBe(BAD_XSRF_TOKEN);
    expect(wrongHeader.statusCode).toBe(403);
    expect(unchanged.json().address).toBe('12 MG Road, Bengaluru');
    expect(withHeader.statusCode).toBe(200);
    expect(withHeader.json().address).toBe('7 Lake View, Hyderabad');
    expect(bearer.statusCode).toBe(200);
  });
});

describe('session life', () => {
  it('ends on logout, for the cookie and the bearer token alike', async () => {
    const { session } = await registerAndSignInUser(api.baseUrl);

    const logout = await request('POST', '/api/auth/logout', session.browser);
    const byCookie = await request('GET', '/api/auth/me', { cookie: session.cookie });
    const byBearer = await request('GET', '/api/auth/me', session.bearer);

    expect(logout.statusCode).toBe(204);
    expect([byCookie.statusCode, byBearer.statusCode]).toEqual([401, 401]);
    expect(byBearer.json()).toEqual({ statusCode: 401, message: NOT_SIGNED_IN });
  });

  it('ends after SESSION_IDLE_HOURS without use, and a use keeps it alive', async () => {
    const idle = await registerAndSignInUser(api.baseUrl);
    const active = await registerAndSignInUser(api.baseUrl);
    const idleHours = test.environment.SESSION_IDLE_HOURS;
    expect(idleHours).toBe(24);
    const age = (hours: number, id: number) =>
      api.dataSource.query(
        `UPDATE sessions SET last_used_at = now() - make_interval(hours => $1), created_at = now() - interval '2 days'
         WHERE role = 'user' AND account_id = $2`,
        [hours, id],
      );
    await age(idleHours, idle.session.id);
    await age(idleHours - 1, active.session.id);

    const idleMe = await request('GET', '/api/auth/me', idle.session.bearer);
    const activeMe = await request('GET', '/api/auth/me', active.session.bearer);
    const [{ lastUsed }] = await api.dataSource.query(
      "SELECT max(last_used_at) > now() - interval '1 minute' AS \"lastUsed\" FROM sessions WHERE role = 'user' AND account_id = $1",
      [active.session.id],
    );

    expect(idleMe.statusCode).toBe(401);
    expect(activeMe.statusCode).toBe(200);
    expect(lastUsed).toBe(true);
  });

  it('expires', async () => {
    const { session } = await registerAndSignInUser(api.baseUrl);
    await api.dataSource.query(
      "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE role = 'user' AND account_id = $1",
      [session.id],
    );

    const me = await request('GET', '/api/auth/me', session.bearer);

    expect(me.statusCode).toBe(401);
  });
});

describe('profiles and referrals', () => {
  it('shows and changes the user profile with the registration rules', async () => {
    const { registration, session } = await registerAndSignInUser(api.baseUrl);

    const profile = await request('GET', '/api/me/profile', session.bearer);
    const invalid = await request('PUT', '/api/me/profile', session.bearer, {
      userName: 'Al',
      mobileNumber: '123',
    });
    const changed = await request('PUT', '/api/me/profile', session.bearer, { userName: 'Asha R. Rao' });

    expect(profile.json()).toMatchObject({
      userName: registration.userName,
      mobileNumber: registration.mobileNumber,
      emailAddress: registration.email,
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toEqual({
      userName: ['Enter at least 4 characters.'],
      mobileNumber: ['Enter valid 10-digit number.'],
    });
    expect(changed.json().userName).toBe('Asha R. Rao');
  });

  it('refuses a mobile number another user has', async () => {
    const first = await registerAndSignInUser(api.baseUrl);
    const second = await registerAndSignInUser(api.baseUrl);

    const response = await request('PUT', '/api/me/profile', second.session.bearer, {
      mobileNumber: first.registration.mobileNumber,
    });

    expect(response.statusCode).toBe(409);
    expect(response.json().errors).toEqual({ mobileNumber: ['Mobile already registered.'] });
  });

  it('shows and changes the merchant profile', async () => {
    const { registration, session } = await registerAndSignInMerchant(api.baseUrl);

    const changed = await request('PUT', '/api/merchant/profile', session.bearer, {
      merchantName: 'Glow Beauty',
    });

    expect(changed.json()).toMatchObject({
      merchantId: session.id,
      merchantName: 'Glow Beauty',
      email: registration.email,
      isEmailConfirmed: true,
    });
  });

  it.each([
    ['/api/me/referral', registerAndSignInUser],
    ['/api/merchant/referral', registerAndSignInMerchant],
  ] as const)('%s gives the code, a registration link and a WhatsApp link', async (url, signIn) => {
    const { session } = await signIn(api.baseUrl);

    const general = await request('GET', url, session.bearer);
    const toFriend = await request('GET', `${url}?mobile=9876543210`, session.bearer);
    const badMobile = await request('GET', `${url}?mobile=98765`, session.bearer);
    const withPrefix = await request(
      'GET',
      `${url}?mobile=${encodeURIComponent('+91 98765 43210')}`,
      session.bearer,
    );

    const { code, link, whatsappUrl } = toFriend.json();
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(link).toBe(`http://localhost:5173/register?ref=${code}`);
    expect(whatsappUrl).toMatch(/^https:\/\/wa\.me\/919876543210\?text=/);
    expect(withPrefix.json().whatsappUrl).toBe(whatsappUrl);
    expect(decodeURIComponent(whatsappUrl.split('text=')[1])).toContain(link);
    expect(general.json().whatsappUrl).toMatch(/^https:\/\/wa\.me\/\?text=/);
    expect(badMobile.statusCode).toBe(400);
    expect(badMobile.json().message).toBe('Enter valid 10-digit number.');
  });
});

describe('secrets', () => {
  it('never sends a password or its hash in any response of this suite', () => {
    const secrets = [
      USER_PASSWORD,
      MERCHANT_PASSWORD,
      DEVELOPMENT_ADMIN_PASSWORD,
      '$argon2',
      'password_hash',
      'passwordHash',
    ];
    expect(receivedResponses.length).toBeGreaterThan(30);
    for (const response of receivedResponses) {
      for (const secret of secrets) expect(response.body).not.toContain(secret);
    }
  });
});
