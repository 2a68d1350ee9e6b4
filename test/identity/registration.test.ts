import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { emailConfirmationToken } from '@offers/api/read-models';
import {
  ADMIN_SIGN_IN,
  MERCHANT_REGISTRATION as M,
  MERCHANT_SIGN_IN,
  USER_REGISTRATION as U,
  USER_SIGN_IN,
} from '@offers/api/rules';
import { merchantRegistration, registrationAddress, userRegistration } from '../support/accounts.js';
import { type ApiApp, startApi } from '../support/api-app.js';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';

let test: TestEnvironment;
let api: ApiApp;

beforeAll(async () => {
  test = await createTestEnvironment('registration');
  api = await startApi(test.environment);
});

afterAll(async () => {
  await api?.close();
  await test?.cleanup();
});

/** Each registration from an address of its own: the per-address limit has its own test. */
const post = (url: string, payload: unknown) =>
  api.http.inject({ method: 'POST', url, headers: registrationAddress(), payload });

/** Each case breaks exactly one rule of a valid form and expects exactly that field's message. */
type Case = [field: string, value: unknown, message: string];

const passwordCases = (required: string): Case[] => [
  ['password', undefined, required],
  ['password', 'Sh@1x', 'Password must be at least 8 characters.'],
  ['password', 'shop@2026', 'Password must contain a capital letter.'],
  ['password', 'SHOP@2026', 'Password must contain a lowercase letter.'],
  ['password', 'Shop@shop', 'Password must contain a digit.'],
  ['password', 'Shop20266', 'Password must contain one of !@#$%^&*.'],
];

describe('user registration', () => {
  it.each<Case>([
    ['userName', undefined, U.userName.required],
    ['userName', '   ', U.userName.required],
    ['userName', 'Asa', U.userName.tooShort],
    ['email', undefined, U.email.required],
    ['email', 'asha.example.in', U.email.invalid],
    ...passwordCases(U.password.required),
    ['mobileNumber', undefined, U.mobileNumber.required],
    ['mobileNumber', '98765', U.mobileNumber.invalid],
    ['mobileNumber', '98765432100', U.mobileNumber.invalid],
    ['mobileNumber', '98765abcde', U.mobileNumber.invalid],
    // An Indian mobile number starts with 6, 7, 8 or 9.
    ['mobileNumber', '5876543210', U.mobileNumber.invalid],
    ['mobileNumber', '+91 0987654321', U.mobileNumber.invalid],
    ['address', undefined, U.address.required],
    ['referredBy', 'NOSUCHCODE', U.referredBy.unknown],
  ])('refuses %s = %p with "%s"', async (field, value, message) => {
    const response = await post('/api/auth/users/register', userRegistration({ [field]: value }));

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ statusCode: 400, message: U.invalid, errors: { [field]: [message] } });
  });

  it('registers a user with a generated referral code, credited to the house code by default', async () => {
    const registration = userRegistration({ referralCode: 'IGNORED' });
    const response = await post('/api/auth/users/register', registration);

    expect(response.statusCode).toBe(201);
    const { userId, referralCode, message } = response.json();
    expect(message).toBe(U.success);
    expect(referralCode).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    const [user] = await api.dataSource.query(
      'SELECT user_name, email, referral_code, referred_by, password_hash FROM users WHERE id = $1',
      [userId],
    );
    expect(user).toMatchObject({ user_name: 'Asha Rao', referral_code: referralCode, referred_by: 'OFFERS' });
    expect(user.password_hash).toMatch(/^\$argon2id\$/);
    const [event] = await api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'UserRegistered' AND aggregate_id = $1",
      [String(userId)],
    );
    // Ids and codes only: the mail consumer reads the address from the account.
    expect(event.payload).toEqual({ referralCode, referredBy: 'OFFERS' });
  });

  it('credits the referrer whose code is given', async () => {
    const referrer = (await post('/api/auth/users/register', userRegistration())).json();
    const response = await post(
      '/api/auth/users/register',
      userRegistration({ referredBy: referrer.referralCode.toLowerCase() }),
    );

    expect(response.statusCode).toBe(201);
    const [user] = await api.dataSource.query('SELECT referred_by FROM users WHERE id = $1', [
      response.json().userId,
    ]);
    const [event] = await api.dataSource.query(
      `SELECT payload FROM outbox WHERE type = 'UserRegistered' AND aggregate_id = $1`,
      [String(response.json().userId)],
    );
    // Credited to the referrer's own code (as written, whatever the case it was typed in).
    expect(user.referred_by).toBe(referrer.referralCode);
    expect(event.payload.referredBy).toBe(referrer.referralCode);
  });

  it.each([
    ['email', U.emailTaken],
    ['mobileNumber', U.mobileTaken],
  ])('answers 409 naming the field when the %s is taken', async (field, message) => {
    const first = userRegistration();
    await post('/api/auth/users/register', first);
    const second = userRegistration({
      [field]: field === 'email' ? first.email.toUpperCase() : first.mobileNumber,
    });

    const response = await post('/api/auth/users/register', second);

    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      statusCode: 409,
      message: U.duplicate,
      errors: { [field]: [message] },
    });
  });

  it('keeps a mobile number as its ten digits however it is written, so one number is one account', async () => {
    const digits = userRegistration().mobileNumber;
    const written = `+91 ${digits.slice(0, 5)}-${digits.slice(5)}`;
    const first = await post('/api/auth/users/register', userRegistration({ mobileNumber: written }));
    const again = await post('/api/auth/users/register', userRegistration({ mobileNumber: `0${digits}` }));

    expect(first.statusCode).toBe(201);
    const [user] = await api.dataSource.query('SELECT mobile_number FROM users WHERE id = $1', [
      first.json().userId,
    ]);
    expect(user.mobile_number).toBe(digits);
    expect(again.statusCode).toBe(409);
    expect(again.json().errors).toEqual({ mobileNumber: [U.mobileTaken] });
  });

  it('creates one account when two registrations with one email arrive together', async () => {
    const email = userRegistration().email;
    const responses = await Promise.all(
      [1, 2, 3].map(() => post('/api/auth/users/register', userRegistration({ email }))),
    );

    expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409]);
  });
});

describe('merchant registration', () => {
  it.each<Case>([
    ['merchantName', undefined, M.merchantName.required],
    ['merchantName', 'Gl', M.merchantName.tooShort],
    ['brandName', undefined, M.brandName.required],
    ['brandName', 'Gl', M.brandName.tooShort],
    ['industry', undefined, M.industry.required],
    ['category', '', M.category.required],
    ['address', undefined, M.address.required],
    ['email', undefined, M.email.required],
    ['email', 'owner@', M.email.invalid],
    ['mobile', undefined, M.mobile.required],
    ['mobile', '12345', M.mobile.invalid],
    ['userName', undefined, M.userName.required],
    ['userName', 'gl', M.userName.tooShort],
    ...passwordCases(M.password.required),
  ])('refuses %s = %p with "%s"', async (field, value, message) => {
    const response = await post('/api/auth/merchants/register', merchantRegistration({ [field]: value }));

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ [field]: [message] });
  });

  it.each([
    [{ merchatURL: undefined }, M.merchantUrl.required],
    [{ merchatURL: 'glow dot in' }, M.merchantUrl.invalid],
    [{ merchatURL: 'ftp://glow.in' }, M.merchantUrl.invalid],
  ])('checks the merchant URL, under its legacy key too (%p)', async (overrides, message) => {
    const response = await post('/api/auth/merchants/register', merchantRegistration(overrides));

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ merchantUrl: [message] });
  });

  it('gives each merchant a unique store address from its brand name, or its id when the name has no Latin letters', async () => {
    const slugOf = async (overrides: Record<string, unknown>) => {
      const response = await post('/api/auth/merchants/register', merchantRegistration(overrides));
      expect(response.statusCode).toBe(201);
      const { merchantId } = response.json();
      const [{ slug }] = await api.dataSource.query('SELECT slug FROM merchants WHERE id = $1', [merchantId]);
      return { merchantId, slug };
    };

    const first = await slugOf({ brandName: 'Kesar & Co.' });
    const second = await slugOf({ brandName: 'KESAR & CO' });
    const accented = await slugOf({ brandName: 'Crème Brûlée' });
    const devanagari = await slugOf({ brandName: 'केसर', merchantName: 'केसर स्टोर' });
    const digits = await slugOf({ brandName: '1947', merchantName: '1947' });

    expect(first.slug).toBe('kesar-co');
    expect(second.slug).toBe('kesar-co-2');
    expect(accented.slug).toBe('creme-brulee');
    expect(devanagari.slug).toBe(`store-${devanagari.merchantId}`);
    // All digits would read as a merchant id in `/store/<digits>`.
    expect(digits.slug).toBe('store-1947');
  });

  it('registers a merchant, records the event and confirms the email from the link', async () => {
    const registration = merchantRegistration({ merchatURL: undefined, merchantUrl: 'https://glow.in' });
    const response = await post('/api/auth/merchants/register', registration);
    expect(response.statusCode).toBe(201);
    const { merchantId, message } = response.json();
    expect(message).toBe(M.success);

    const dataSource = api.dataSource;
    const [event] = await dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'MerchantRegistered' AND aggregate_id = $1",
      [String(merchantId)],
    );
    expect(event.payload).toMatchObject({ referredByType: 'merchant' });
    expect(Object.keys(event.payload).sort()).toEqual([
      'confirmationExpiresAt',
      'referralCode',
      'referredByCode',
      'referredByType',
    ]);
    const token = emailConfirmationToken(
      test.environment.SESSION_SECRET,
      merchantId,
      registration.email,
      new Date(event.payload.confirmationExpiresAt),
    );

    const forged = await api.http.inject({
      method: 'GET',
      url: `/api/auth/confirm-email?token=${token.slice(0, -2)}xx`,
    });
    const confirmed = await api.http.inject({ method: 'GET', url: `/api/auth/confirm-email?token=${token}` });
    const again = await api.http.inject({ method: 'GET', url: `/api/auth/confirm-email?token=${token}` });

    expect(forged.statusCode).toBe(400);
    expect(confirmed.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    const [merchant] = await dataSource.query('SELECT is_email_confirmed FROM merchants WHERE id = $1', [
      merchantId,
    ]);
    expect(merchant.is_email_confirmed).toBe(true);
    const confirmations = await dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'MerchantEmailConfirmed' AND aggregate_id = $1",
      [String(merchantId)],
    );
    expect(confirmations).toEqual([{ payload: {} }]);
  });

  it.each([
    '',
    'nonsense',
    `9999999999.${Date.now() + 60_000}.${'a'.repeat(43)}`,
    `1.${Date.now() + 60_000}.${'a'.repeat(43)}`,
  ])('refuses a malformed or forged confirmation token (%p) with 400', async (token) => {
    const response = await api.http.inject({ method: 'GET', url: `/api/auth/confirm-email?token=${token}` });

    expect(response.statusCode).toBe(400);
  });

  it('refuses an expired confirmation link', async () => {
    const registration = merchantRegistration();
    const { merchantId } = (await post('/api/auth/merchants/register', registration)).json();
    const token = emailConfirmationToken(
      test.environment.SESSION_SECRET,
      merchantId,
      registration.email,
      new Date(Date.now() - 1000),
    );

    const response = await api.http.inject({ method: 'GET', url: `/api/auth/confirm-email?token=${token}` });

    expect(response.statusCode).toBe(400);
  });

  it.each([
    ['email', M.emailTaken],
    ['mobile', M.mobileTaken],
    ['userName', M.userNameTaken],
  ])('answers 409 naming the field when the %s is taken', async (field, message) => {
    const first = merchantRegistration();
    await post('/api/auth/merchants/register', first);

    const response = await post(
      '/api/auth/merchants/register',
      merchantRegistration({ [field]: first[field as keyof typeof first] }),
    );

    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      statusCode: 409,
      message: M.duplicate,
      errors: { [field]: [message] },
    });
  });
});

describe('sign-in forms', () => {
  const user = { emailOrMobile: 'asha@example.in', password: 'Shop@2026' };
  /** What the older client sends: the display name beside the email is no longer checked. */
  const olderClient = { email: 'asha@example.in', userName: 'Asha Rao', password: 'Shop@2026' };
  const merchant = { userName: 'glowadmin', password: 'Glow@2026' };

  it.each<Case>([
    ['emailOrMobile', undefined, USER_SIGN_IN.emailOrMobile.required],
    ['emailOrMobile', '  ', USER_SIGN_IN.emailOrMobile.required],
    ['emailOrMobile', 'asha', USER_SIGN_IN.emailOrMobile.invalid],
    ['emailOrMobile', '98765', USER_SIGN_IN.emailOrMobile.invalid],
    ['emailOrMobile', '5876543210', USER_SIGN_IN.emailOrMobile.invalid],
    ['emailOrMobile', null, USER_SIGN_IN.emailOrMobile.required],
    ['password', undefined, USER_SIGN_IN.password.required],
    ['password', 'abc', USER_SIGN_IN.password.tooShort],
  ])('user: refuses %s = %p with "%s"', async (field, value, message) => {
    const response = await post('/api/auth/users/login', { ...user, [field]: value });

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ [field]: [message] });
  });

  it.each<Case>([
    ['email', '', USER_SIGN_IN.email.required],
    ['email', 'asha', USER_SIGN_IN.email.invalid],
  ])('user, the older client\'s form: refuses %s = %p with "%s"', async (field, value, message) => {
    const response = await post('/api/auth/users/login', { ...olderClient, [field]: value });

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ [field]: [message] });
  });

  it.each([
    ['an email and a name', olderClient],
    ['a mobile number as the email, without a name', { email: '+91 98765 43210', password: 'Shop@2026' }],
    ['a mobile number', { emailOrMobile: '09876543210', password: 'Shop@2026' }],
  ])('user: takes %s as a well-formed sign-in (401 for an unknown account)', async (_name, body) => {
    const response = await post('/api/auth/users/login', body);

    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe(USER_SIGN_IN.failed);
  });

  it.each<Case>([
    ['userName', undefined, MERCHANT_SIGN_IN.userName.required],
    ['userName', 'glo', MERCHANT_SIGN_IN.userName.tooShort],
    ['password', undefined, MERCHANT_SIGN_IN.password.required],
    ['password', 'abc', MERCHANT_SIGN_IN.password.tooShort],
  ])('merchant: refuses %s = %p with "%s"', async (field, value, message) => {
    const response = await post('/api/auth/merchants/login', { ...merchant, [field]: value });

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ [field]: [message] });
  });

  it.each<Case>([
    ['username', undefined, ADMIN_SIGN_IN.username.required],
    ['password', undefined, ADMIN_SIGN_IN.password.required],
  ])('admin: refuses %s = %p with "%s"', async (field, value, message) => {
    const response = await post('/api/auth/admin/login', {
      username: 'admin',
      password: 'x',
      [field]: value,
    });

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ [field]: [message] });
  });
});
