import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MERCHANT_SIGN_IN, SIGN_IN_THROTTLE, USER_REGISTRATION, USER_SIGN_IN } from '@offers/api/rules';
import {
  MERCHANT_PASSWORD,
  registerAndSignInMerchant,
  registerAndSignInUser,
  USER_PASSWORD,
} from '../support/accounts.js';
import { type ApiApp, startApi } from '../support/api-app.js';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';

/**
 * Shoppers sign in with their email or mobile number, merchants with their username, email or
 * mobile number; a display name names nobody. However an account is named, failed guesses count
 * against that one account.
 */
let test: TestEnvironment;
let api: ApiApp;

beforeAll(async () => {
  test = await createTestEnvironment('sign_in');
  api = await startApi(test.environment);
});

afterAll(async () => {
  await api?.close();
  await test?.cleanup();
});

let addresses = 0;
/** Failed sign-ins count against the client address too: each test uses addresses of its own. */
function newAddress() {
  addresses += 1;
  return `10.30.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
}

const post = (url: string, payload: unknown, address = newAddress()) =>
  api.http.inject({ method: 'POST', url, headers: { 'x-forwarded-for': address }, payload });

const userSignIn = (payload: unknown, address?: string) => post('/api/auth/users/login', payload, address);
const merchantSignIn = (userName: string, password: string, address?: string) =>
  post('/api/auth/merchants/login', { userName, password }, address);

/** The ways people write one Indian mobile number. */
const writings = (digits: string) => [
  digits,
  `+91${digits}`,
  `+91 ${digits.slice(0, 5)} ${digits.slice(5)}`,
  `+91-${digits.slice(0, 5)}-${digits.slice(5)}`,
  `0${digits}`,
  `91${digits}`,
];

describe('shoppers', () => {
  it('sign in with their email in any case, from the new form and the older one', async () => {
    const { registration, session } = await registerAndSignInUser(api.baseUrl);
    const shouted = `  ${registration.email.toUpperCase()} `;

    const newForm = await userSignIn({ emailOrMobile: shouted, password: USER_PASSWORD });
    const olderForm = await userSignIn({ email: shouted, userName: 'Someone Else', password: USER_PASSWORD });

    expect(newForm.statusCode).toBe(200);
    expect(newForm.json()).toMatchObject({ userId: session.id, user: { email: registration.email } });
    // The older client's name beside the email is not a credential any more: any name will do.
    expect(olderForm.statusCode).toBe(200);
    expect(olderForm.json().userId).toBe(session.id);
  });

  it('sign in with their mobile number, with +91 or 0 before it or not', async () => {
    const { registration, session } = await registerAndSignInUser(api.baseUrl);

    const answers = await Promise.all(
      writings(registration.mobileNumber).map((mobile) =>
        userSignIn({ emailOrMobile: mobile, password: USER_PASSWORD }),
      ),
    );
    const olderForm = await userSignIn({ email: `+91${registration.mobileNumber}`, password: USER_PASSWORD });

    expect(answers.map((answer) => [answer.statusCode, answer.json().userId])).toEqual(
      answers.map(() => [200, session.id]),
    );
    expect(olderForm.json().userId).toBe(session.id);
  });

  it('cannot sign in with their display name', async () => {
    const { registration } = await registerAndSignInUser(api.baseUrl, { userName: 'Meera Iyer' });

    const byName = await userSignIn({ emailOrMobile: registration.userName, password: USER_PASSWORD });
    const byNameInOlderForm = await userSignIn({
      email: registration.userName,
      userName: registration.userName,
      password: USER_PASSWORD,
    });

    expect(byName.statusCode).toBe(400);
    expect(byName.json().errors).toEqual({ emailOrMobile: [USER_SIGN_IN.emailOrMobile.invalid] });
    expect(byNameInOlderForm.statusCode).toBe(400);
    expect(byNameInOlderForm.json().errors).toEqual({ email: [USER_SIGN_IN.email.invalid] });
  });

  it('fail alike for a wrong password by mobile and for a number nobody has', async () => {
    const { registration } = await registerAndSignInUser(api.baseUrl);
    const address = newAddress();

    const wrongPassword = await userSignIn(
      { emailOrMobile: registration.mobileNumber, password: 'Wrong@2026' },
      address,
    );
    const nobody = await userSignIn({ emailOrMobile: '6000000002', password: USER_PASSWORD }, address);

    for (const answer of [wrongPassword, nobody]) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ statusCode: 401, message: USER_SIGN_IN.failed });
    }
  });
});

describe('failed guesses', () => {
  it('count against the account whether it is named by email or by mobile number', async () => {
    const { registration, session } = await registerAndSignInUser(api.baseUrl);
    const attacker = newAddress();
    const names = [registration.email, `+91 ${registration.mobileNumber}`];
    const failures = [];
    for (let i = 0; i < SIGN_IN_THROTTLE.pair.maxFailures; i += 1) {
      const answer = await userSignIn({ emailOrMobile: names[i % 2], password: 'nope1234' }, attacker);
      failures.push(answer.statusCode);
    }

    const byEmail = await userSignIn(
      { emailOrMobile: registration.email, password: USER_PASSWORD },
      attacker,
    );
    const byMobile = await userSignIn(
      { emailOrMobile: registration.mobileNumber, password: USER_PASSWORD },
      attacker,
    );
    const ownerElsewhere = await userSignIn({
      emailOrMobile: registration.mobileNumber,
      password: USER_PASSWORD,
    });
    const other = await registerAndSignInUser(api.baseUrl);
    const otherAccountSameAddress = await userSignIn(
      { emailOrMobile: other.registration.email, password: USER_PASSWORD },
      attacker,
    );

    expect(failures).toEqual(Array(SIGN_IN_THROTTLE.pair.maxFailures).fill(401));
    for (const blocked of [byEmail, byMobile]) {
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ statusCode: 429, message: SIGN_IN_THROTTLE.message });
    }
    expect(ownerElsewhere.json().userId).toBe(session.id);
    expect(otherAccountSameAddress.statusCode).toBe(200);
  });

  it("count against a merchant's account whether named by username, email or mobile number", async () => {
    const { registration } = await registerAndSignInMerchant(api.baseUrl);
    const attacker = newAddress();
    const names = [registration.userName, registration.email, `0${registration.mobile}`];
    for (let i = 0; i < SIGN_IN_THROTTLE.pair.maxFailures; i += 1) {
      expect((await merchantSignIn(names[i % 3]!, 'nope1234', attacker)).statusCode).toBe(401);
    }

    for (const name of names) {
      expect((await merchantSignIn(name, MERCHANT_PASSWORD, attacker)).statusCode).toBe(429);
    }
    expect((await merchantSignIn(registration.email, MERCHANT_PASSWORD)).statusCode).toBe(200);
  });
});

describe('merchants', () => {
  it('sign in with their username, email or mobile number, in any case or writing', async () => {
    const { registration, session } = await registerAndSignInMerchant(api.baseUrl);

    const names = [
      registration.userName.toUpperCase(),
      registration.email.toUpperCase(),
      ...writings(registration.mobile),
    ];
    const answers = await Promise.all(names.map((name) => merchantSignIn(name, MERCHANT_PASSWORD)));

    expect(answers.map((answer) => [answer.statusCode, answer.json().merchantId])).toEqual(
      names.map(() => [200, session.id]),
    );
    expect(answers[0]!.json().message).toBe(MERCHANT_SIGN_IN.success);
  });

  it("sign in by username even when it reads as another merchant's email", async () => {
    const owner = await registerAndSignInMerchant(api.baseUrl);
    const lookalike = await registerAndSignInMerchant(api.baseUrl, {
      userName: owner.registration.email.toUpperCase(),
    });

    const byUsername = await merchantSignIn(owner.registration.email, MERCHANT_PASSWORD);

    expect(byUsername.json().merchantId).toBe(lookalike.session.id);
    expect((await merchantSignIn(owner.registration.mobile, MERCHANT_PASSWORD)).json().merchantId).toBe(
      owner.session.id,
    );
  });
});

describe('referral codes', () => {
  const lookUp = (code: string) => api.http.inject({ method: 'GET', url: `/api/referral-codes/${code}` });

  it('answers whether a code exists, in any case, without signing in', async () => {
    const { session } = await registerAndSignInUser(api.baseUrl);
    const [{ referral_code: code }] = await api.dataSource.query(
      'SELECT referral_code FROM users WHERE id = $1',
      [session.id],
    );

    const known = await lookUp(code.toLowerCase());
    const house = await lookUp('offers');
    const unknown = await lookUp('NOPE');
    const blank = await lookUp('%20%20');

    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({ code });
    expect(house.json()).toEqual({ code: 'OFFERS' });
    for (const answer of [unknown, blank]) {
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ statusCode: 404, message: USER_REGISTRATION.referredBy.unknown });
    }
  });
});
