import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD, firstAdminSeed } from '@offers/api/demo';
import { PASSWORD_RESET, REGISTRATION_LIMIT, SIGN_IN_THROTTLE } from '@offers/api/rules';
import {
  MERCHANT_PASSWORD,
  merchantRegistration,
  registerAndSignInMerchant,
  userRegistration,
} from '../support/accounts.js';
import { type ApiApp, startApi } from '../support/api-app.js';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';

/**
 * Guessing passwords is slowed and stopped without locking out the account's owner or the
 * shoppers who share an address with the guesser.
 */
let test: TestEnvironment;
let api: ApiApp;

beforeAll(async () => {
  test = await createTestEnvironment('brute_force');
  api = await startApi(test.environment);
  await firstAdminSeed.run(api.dataSource, test.environment);
});

afterAll(async () => {
  await api?.close();
  await test?.cleanup();
});

const signIn = (userName: string, password: string, address: string) =>
  api.http.inject({
    method: 'POST',
    url: '/api/auth/merchants/login',
    headers: { 'x-forwarded-for': address },
    payload: { userName, password },
  });

const adminSignIn = (password: string, address: string) =>
  api.http.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    headers: { 'x-forwarded-for': address },
    payload: { username: 'admin', password },
  });

describe('failures for one account from one address', () => {
  it('block that pair for 15 minutes after 10, and nobody else', async () => {
    const { registration } = await registerAndSignInMerchant(api.baseUrl);
    const attacker = '10.1.0.1';
    const failures = [];
    for (let i = 0; i < SIGN_IN_THROTTLE.pair.maxFailures; i += 1) {
      failures.push((await signIn(registration.userName, 'nope1234', attacker)).statusCode);
    }

    const blockedPair = await signIn(registration.userName, MERCHANT_PASSWORD, attacker);
    const ownerElsewhere = await signIn(registration.userName, MERCHANT_PASSWORD, '10.1.0.2');
    const otherAccountSameAddress = await registerAndSignInMerchant(api.baseUrl).then(
      ({ registration: other }) => signIn(other.userName, MERCHANT_PASSWORD, attacker),
    );

    expect(failures).toEqual(Array(SIGN_IN_THROTTLE.pair.maxFailures).fill(401));
    expect(blockedPair.statusCode).toBe(429);
    expect(blockedPair.json()).toEqual({ statusCode: 429, message: SIGN_IN_THROTTLE.message });
    expect(ownerElsewhere.statusCode).toBe(200);
    expect(otherAccountSameAddress.statusCode).toBe(200);

    await api.dataSource.query("UPDATE sign_in_failures SET failed_at = now() - interval '16 minutes'");
    expect((await signIn(registration.userName, MERCHANT_PASSWORD, attacker)).statusCode).toBe(200);
  });

  it('five wrong passwords no longer lock the admin out', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await adminSignIn('Wrong@2026', `10.2.0.${i}`)).statusCode).toBe(401);
    }
    expect((await adminSignIn(DEVELOPMENT_ADMIN_PASSWORD, '10.2.1.1')).statusCode).toBe(200);
  });
});

describe('failures from one address across accounts', () => {
  it('do not block the shoppers behind a shared address until 100 in an hour', async () => {
    const shared = '10.3.0.1';
    // Five mistakes by as many shoppers behind one carrier address lock nobody out.
    for (let i = 0; i < 5; i += 1) await signIn(`shopper${i}x`, 'nope1234', shared);
    const { registration } = await registerAndSignInMerchant(api.baseUrl);
    expect((await signIn(registration.userName, MERCHANT_PASSWORD, shared)).statusCode).toBe(200);

    // A guesser that reaches 100 failures within the hour blocks the address.
    await api.dataSource.query(
      "INSERT INTO sign_in_failures (key, failed_at) SELECT 'address:' || $1, now() - interval '50 minutes' FROM generate_series(1, $2)",
      [shared, SIGN_IN_THROTTLE.address.maxFailures - 6],
    );
    expect((await signIn('someone9x', 'nope1234', shared)).statusCode).toBe(401);
    const blocked = await signIn(registration.userName, MERCHANT_PASSWORD, shared);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(SIGN_IN_THROTTLE.message);
  });
});

describe('failures spread over many addresses', () => {
  it('slow the account down more and more but never refuse the right password from a clean address', async () => {
    const { registration } = await registerAndSignInMerchant(api.baseUrl);
    const timed = async (password: string, address: string) => {
      const started = Date.now();
      const response = await signIn(registration.userName, password, address);
      return { status: response.statusCode, ms: Date.now() - started };
    };
    const before = await timed(MERCHANT_PASSWORD, '10.4.9.1');
    // A botnet: one wrong password from each of 20 addresses.
    const spread = [];
    for (let i = 0; i < 20; i += 1) spread.push(await timed('nope1234', `10.4.0.${i}`));

    const owner = await timed(MERCHANT_PASSWORD, '10.4.9.2');

    expect(before.status).toBe(200);
    expect(spread.every((attempt) => attempt.status === 401)).toBe(true);
    // Past 10 failures every attempt waits, and the wait grows.
    const { slowdownAfter, slowdownStepMs } = SIGN_IN_THROTTLE.account;
    expect(spread[slowdownAfter + 5]!.ms).toBeGreaterThanOrEqual(6 * slowdownStepMs);
    expect(spread[19]!.ms).toBeGreaterThan(spread[slowdownAfter]!.ms);
    expect(owner.status).toBe(200);
    expect(owner.ms).toBeGreaterThanOrEqual(slowdownStepMs);
  }, 60_000);
});

describe('registration and password recovery', () => {
  it('accept at most 10 registrations an hour from one address', async () => {
    const address = '10.5.0.1';
    const statuses = [];
    for (let i = 0; i < REGISTRATION_LIMIT.perWindow; i += 1) {
      const payload = i % 2 === 0 ? userRegistration() : merchantRegistration();
      const url = i % 2 === 0 ? '/api/auth/users/register' : '/api/auth/merchants/register';
      statuses.push(
        (await api.http.inject({ method: 'POST', url, headers: { 'x-forwarded-for': address }, payload }))
          .statusCode,
      );
    }
    const eleventh = await api.http.inject({
      method: 'POST',
      url: '/api/auth/users/register',
      headers: { 'x-forwarded-for': address },
      payload: userRegistration(),
    });
    const elsewhere = await api.http.inject({
      method: 'POST',
      url: '/api/auth/users/register',
      headers: { 'x-forwarded-for': '10.5.0.2' },
      payload: userRegistration(),
    });

    expect(statuses).toEqual(Array(REGISTRATION_LIMIT.perWindow).fill(201));
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json().message).toBe(REGISTRATION_LIMIT.message);
    expect(elsewhere.statusCode).toBe(201);
  });

  it('send at most 3 recovery mails an hour per account, whether or not it exists', async () => {
    const forgot = (email: string) =>
      api.http.inject({
        method: 'POST',
        url: '/api/auth/password/forgot',
        headers: { 'x-forwarded-for': `10.6.0.${Math.floor(Math.random() * 200)}` },
        payload: { email, role: 'user' },
      });
    const existing = await api.http.inject({
      method: 'POST',
      url: '/api/auth/users/register',
      payload: userRegistration(),
    });
    expect(existing.statusCode).toBe(201);
    const [{ email }] = await api.dataSource.query('SELECT email FROM users WHERE id = $1', [
      existing.json().userId,
    ]);
    for (const address of [email, 'nobody-at-all@example.in']) {
      const answers = [];
      for (let i = 0; i < PASSWORD_RESET.perWindow + 1; i += 1) answers.push(await forgot(address));
      expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202, 202, 429]);
      expect(answers[3]!.json().message).toBe(PASSWORD_RESET.tooMany);
    }
  });
});
