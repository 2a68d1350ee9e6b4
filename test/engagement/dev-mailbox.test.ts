import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD, firstAdminSeed } from '@offers/api/identity/admin-seed';
import { ConfigurationError, validateEnvironment } from '@offers/api/infrastructure/config/environment';
import { BEARER_SIGN_IN, registerAndSignInUser, sessionFrom } from '../support/accounts.js';
import { type ApiApp, startApi } from '../support/api-app.js';
import { ENGAGEMENT_CONSUMERS } from '../support/engagement.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

/** Without SMTP_URL (outside production) the workers keep every mail in the development mailbox. */
let test: TestEnvironment;
let api: ApiApp;
let workers: WorkersApp;
let admin: Record<string, string>;

beforeAll(async () => {
  test = await createTestEnvironment('engagement dev mailbox');
  expect(test.environment.SMTP_URL).toBeUndefined();
  api = await startApi(test.environment);
  workers = await startWorkers(test.environment, ['relay', 'events'], ENGAGEMENT_CONSUMERS);
  await firstAdminSeed.run(api.dataSource, test.environment);
  const signIn = await api.http.inject({
    method: 'POST',
    url: '/api/auth/admin/login',
    headers: BEARER_SIGN_IN,
    payload: { username: 'admin', password: DEVELOPMENT_ADMIN_PASSWORD },
  });
  admin = sessionFrom(signIn, signIn.json().userId).bearer;
});

afterAll(async () => {
  await workers?.close();
  await api?.close();
  await test?.cleanup();
});

it('shows every mail to admins at /api/admin/dev-mailbox', async () => {
  const { registration } = await registerAndSignInUser(api.baseUrl);
  const mails = await eventually(async () => {
    const response = await api.http.inject({ method: 'GET', url: '/api/admin/dev-mailbox', headers: admin });
    return response.json().length > 0 && response;
  }, 'the welcome mail in the development mailbox');

  expect(mails.headers['content-range']).toBe('dev-mailbox 0-0/1');
  const [mail] = mails.json();
  expect(mail).toMatchObject({
    from: test.environment.MAIL_FROM.replace(/^Offers Marketplace /, '"Offers Marketplace" '),
    to: registration.email,
    subject: 'Welcome to Offers Marketplace, Asha Rao',
    date: expect.any(String),
  });
  expect(mail.text).toContain('Thank you for joining Offers Marketplace.');
  expect(mail.html).toContain('<html lang="en">');
  const one = await api.http.inject({
    method: 'GET',
    url: `/api/admin/dev-mailbox/${mail.id}`,
    headers: admin,
  });
  expect(one.json()).toEqual(mail);
});

it('refuses to start in production without SMTP_URL', () => {
  const production = { NODE_ENV: 'production', SESSION_SECRET: 'a-production-secret-of-enough-length-1234' };
  expect(() => validateEnvironment(production)).toThrow(ConfigurationError);
  expect(() => validateEnvironment(production)).toThrow(/SMTP_URL/);
  expect(validateEnvironment({ ...production, SMTP_URL: 'smtp://mail.example.in:587' }).SMTP_URL).toBe(
    'smtp://mail.example.in:587',
  );
});
