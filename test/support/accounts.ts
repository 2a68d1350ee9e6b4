import { randomBytes } from 'node:crypto';
import { type HttpResponse, send } from './api-app.js';

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
    ...overrides,
  };
}

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
    payload: registration,
  });
  if (registered.statusCode !== 201) throw new Error(`registration failed: ${registered.body}`);
  const signedIn = await send(baseUrl, {
    method: 'POST',
    url: '/api/auth/users/login',
    payload: { email: registration.email, userName: registration.userName, password: registration.password },
  });
  return { registration, session: sessionFrom(signedIn, registered.json().userId) };
}

export async function registerAndSignInMerchant(baseUrl: string, overrides: Record<string, unknown> = {}) {
  const registration = merchantRegistration(overrides);
  const registered = await send(baseUrl, {
    method: 'POST',
    url: '/api/auth/merchants/register',
    payload: registration,
  });
  if (registered.statusCode !== 201) throw new Error(`registration failed: ${registered.body}`);
  const signedIn = await send(baseUrl, {
    method: 'POST',
    url: '/api/auth/merchants/login',
    payload: { userName: registration.userName, password: registration.password },
  });
  return { registration, session: sessionFrom(signedIn, registered.json().merchantId) };
}
