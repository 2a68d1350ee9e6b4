import { randomBytes } from 'node:crypto';
import { emailConfirmationToken } from '@offers/api/read-models';
import { type HttpResponse, send } from './api-app.js';
import { TEST_SESSION_SECRET } from './test-environment.js';

let counter = 0;
/** A fresh 10-digit mobile number and email for each registration of a test run. */
export function uniqueContact(): { email: string; mobile: string } {
  counter += 1;
  const suffix = `${process.pid % 1000}${counter}`.padStart(6, '0').slice(-6);
  return {
    email: `shopper${suffix}.${randomBytes(2).toString('hex')}@example.in`,
    mobile: `98${Math.floor(Math.random() * 1e8)
      .toString()
      .padStart(8, '0')}`,
  };
}

let addresses = 0;
/**
 * Registrations are limited per client address (10 an hour); the helpers' accounts come from
 * addresses of their own, as real shoppers' do, so a file may make as many as it needs.
 */
export function registrationAddress(): Record<string, string> {
  addresses += 1;
  return { 'x-forwarded-for': `10.250.${Math.floor(addresses / 250) % 250}.${(addresses % 250) + 1}` };
}

export const USER_PASSWORD = 'Shop@2026x';
export const MERCHANT_PASSWORD = 'Glow@2026x';

export function userRegistration(overrides: Record<string, unknown> = {}) {
  const { email, mobile } = uniqueContact();
  return {
    userName: 'Asha Rao',
    email,
    password: USER_PASSWORD,
    mobileNumber: mobile,
    address: '12 MG Road, Bengaluru',
    ageConfirmed: true,
    ...overrides,
  };
}

export function merchantRegistration(overrides: Record<string, unknown> = {}) {
  const { email, mobile } = uniqueContact();
  return {
    merchantName: 'Glow Cosmetics',
    brandName: 'Glow',
    industry: 'Beauty',
    category: 'Skin Care',
    address: '4 Park Street, Kolkata',
    email,
    mobile,
    merchatURL: 'https://glow.example.in',
    userName: `glow${randomBytes(3).toString('hex')}`,
    password: MERCHANT_PASSWORD,
    ageConfirmed: true,
    ...overrides,
  };
}

/** What an API client sends to sign in for a bearer token (a browser's sign-in gets cookies alone). */
export const BEARER_SIGN_IN = { 'x-session-kind': 'bearer' } as const;

export interface Session {
  id: number;
  token: string;
  cookie: string;
  xsrfToken: string;
  /** Headers for a bearer request. */
  bearer: Record<string, string>;
  /** Headers for a cookie request that proves itself with the XSRF token. */
  browser: Record<string, string>;
}

export function sessionFrom(response: HttpResponse, id: number): Session {
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const setCookies = [response.headers['set-cookie'] ?? []].flat();
  const cookie = setCookies.map((header) => header.split(';')[0]).join('; ');
  const body = response.json();
  if (!body.token) throw new Error('sign-in returned no bearer token: send BEARER_SIGN_IN headers');
  return {
    id,
    token: body.token,
    cookie,
    xsrfToken: body.xsrfToken,
    bearer: { authorization: `Bearer ${body.token}` },
    browser: { cookie, 'x-xsrf-token': body.xsrfToken },
  };
}

export async function registerAndSignInUser(baseUrl: string, overrides: Record<string, unknown> = {}) {
  const registration = userRegistration(overrides);
  const registered = await send(baseUrl, {
    method: 'POST',
    url: '/api/auth/users/register',
    headers: registrationAddress(),
    payload: registration,
  });
  if (registered.statusCode !== 201) throw new Error(`registration failed: ${registered.body}`);
  const signedIn = await send(baseUrl, {
    method: 'POST',
    url: '/api/auth/users/login',
    headers: BEARER_SIGN_IN,
    payload: { email: registration.email, userName: registration.userName, password: registration.password },
  });
  return { registration, session: sessionFrom(signedIn, registered.json().userId) };
}

/**
 * A registered merchant, signed in. It follows its confirmation link (as signed by the workers)
 * unless `confirmEmail` is false: only a confirmed merchant's coupons and store page go public.
 */
export async function registerAndSignInMerchant(
  baseUrl: string,
  overrides: Record<string, unknown> = {},
  { confirmEmail = true } = {},
) {
  const registration = merchantRegistration(overrides);
  const registered = await send(baseUrl, {
    method: 'POST',
    url: '/api/auth/merchants/register',
    headers: registrationAddress(),
    payload: registration,
  });
  if (registered.statusCode !== 201) throw new Error(`registration failed: ${registered.body}`);
  if (confirmEmail) await confirmMerchantEmail(baseUrl, registered.json().merchantId, registration.email);
  const signedIn = await send(baseUrl, {
    method: 'POST',
    url: '/api/auth/merchants/login',
    headers: BEARER_SIGN_IN,
    payload: { userName: registration.userName, password: registration.password },
  });
  return { registration, session: sessionFrom(signedIn, registered.json().merchantId) };
}

/** Follows the merchant's email confirmation link, signed as the workers sign the mailed one. */
export async function confirmMerchantEmail(baseUrl: string, merchantId: number, email: string) {
  const token = emailConfirmationToken(
    TEST_SESSION_SECRET,
    merchantId,
    email,
    new Date(Date.now() + 3600_000),
  );
  const confirmed = await send(baseUrl, {
    method: 'GET',
    url: `/api/auth/confirm-email?token=${encodeURIComponent(token)}`,
  });
  if (confirmed.statusCode !== 200) throw new Error(`email not confirmed: ${confirmed.body}`);
}
