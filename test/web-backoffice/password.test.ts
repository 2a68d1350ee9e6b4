import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PASSWORD_RESET } from '@offers/api/rules';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible } from '../support/accessibility.js';
import { MERCHANT_PASSWORD, registerAndSignInMerchant } from '../support/accounts.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { linkIn } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';

/** A merchant changes, forgets and resets the password and signs out everywhere, in the back-office. */
const NEW_PASSWORD = 'Diwali@2027';

let market: EngagementMarket;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startEngagementMarket('backoffice_password');
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

async function signIn(page: Page, userName: string, password: string) {
  await page.goto(`${site.url}/#/login`);
  await page.getByLabel('Username').fill(userName);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(/^Welcome, /).waitFor();
}

describe('back-office: a merchant’s password', () => {
  it('is changed, and sign out everywhere ends every session', async () => {
    const page = await browser.newPage();
    const { registration, session: script } = await registerAndSignInMerchant(market.api.baseUrl);
    await signIn(page, registration.userName, MERCHANT_PASSWORD);
    await step(page, 'backoffice-change-password', async () => {
      await page.getByRole('menuitem', { name: 'Password and sessions' }).click();
      await page.getByText('(this browser)').waitFor();
      expectAccessible(await seriousViolations(page));
      await page.getByLabel('Current password').fill(MERCHANT_PASSWORD);
      await page.getByLabel('New password', { exact: true }).fill('weak');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password must be at least 8 characters.').waitFor();
      await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Your password has been changed.').waitFor();
    });
    const scriptAfter = await market.api.http.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: script.bearer,
    });
    expect(scriptAfter.statusCode).toBe(401);
    await step(page, 'backoffice-sign-out-everywhere', async () => {
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await signIn(page, registration.userName, NEW_PASSWORD);
    });
    await page.close();
  }, 120_000);

  it('is reset from the link mailed to the merchant', async () => {
    const page = await browser.newPage();
    const { registration } = await registerAndSignInMerchant(market.api.baseUrl);
    await step(page, 'backoffice-forgot-password', async () => {
      await page.goto(`${site.url}/#/login`);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.getByLabel('Email').fill(registration.email);
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByText(PASSWORD_RESET.accepted).waitFor();
    });
    const mail = await eventually(
      async () => market.smtp.to(registration.email).find((m) => m.subject.includes('password')),
      'the reset mail',
    );
    const link = linkIn(mail, 'http://office.offers.test/#/reset-password?token=');
    await step(page, 'backoffice-reset-password', async () => {
      await page.goto(`${site.url}/${link.slice(link.indexOf('#'))}`);
      await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save new password' }).click();
      await page.getByText(PASSWORD_RESET.done).waitFor();
      await signIn(page, registration.userName, NEW_PASSWORD);
    });
    await page.close();
  }, 120_000);
});
