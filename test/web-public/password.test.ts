import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PASSWORD_CHANGE, PASSWORD_RESET } from '@offers/api/rules';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { registerAndSignInUser, USER_PASSWORD } from '../support/accounts.js';
import { inContext, launchBrowser, type WebApp } from '../support/browser.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { linkIn } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';
import { seriousViolations, serveSite, visit } from '../support/web-public.js';

/**
 * A shopper changes, forgets and resets the password and signs out everywhere, in a real browser
 * on the public site's production build, with the reset link taken from a real mail.
 */
const BROWSER_TEST_MS = 120_000;
const NEW_PASSWORD = 'Monsoon@2027';

let market: EngagementMarket;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startEngagementMarket('web_public_password');
  site = await serveSite(market);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

async function inBrowser(name: string, steps: (page: Page, context: BrowserContext) => Promise<void>) {
  const context = await browser.newContext({ baseURL: site.url, viewport: { width: 1280, height: 900 } });
  await inContext(context, name, steps);
}

async function signIn(page: Page, email: string, password: string) {
  await visit(page, '/sign-in');
  await page.getByLabel('Email or mobile number').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/account$/);
}

const expectAccessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

describe('the public site', () => {
  it(
    'changes the password, lists the sessions and signs out everywhere',
    () =>
      inBrowser('password-change', async (page) => {
        const { registration, session: phone } = await registerAndSignInUser(market.api.baseUrl);
        await signIn(page, registration.email, USER_PASSWORD);

        await page.getByRole('link', { name: 'Password and sessions' }).click();
        await page.waitForURL(/\/account\/security$/);
        await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
        await page.getByText('(this browser)').waitFor();
        await expectAccessible(page);

        await page.getByLabel('Current password').fill('Wrong@2026');
        await page.getByLabel('New password').fill(NEW_PASSWORD);
        await page.getByRole('button', { name: 'Change password' }).click();
        await page.getByText(PASSWORD_CHANGE.currentPassword.wrong).first().waitFor();

        await page.getByLabel('Current password').fill(USER_PASSWORD);
        await page.getByRole('button', { name: 'Change password' }).click();
        await page.getByText(PASSWORD_CHANGE.changed).waitFor();
        // The phone's session ended with the change; this browser stays signed in.
        const phoneAfter = await market.api.http.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: phone.bearer,
        });
        expect(phoneAfter.statusCode).toBe(401);

        await page.getByRole('button', { name: 'Sign out everywhere' }).click();
        await page.waitForURL(/\/sign-in$/);
        await visit(page, '/account/security');
        await page.waitForURL(/\/sign-in\?next=/);
        await signIn(page, registration.email, NEW_PASSWORD);
      }),
    BROWSER_TEST_MS,
  );

  it(
    'sends a reset link by mail, in the account language, that works once',
    () =>
      inBrowser('password-reset', async (page) => {
        const { registration } = await registerAndSignInUser(market.api.baseUrl);
        await visit(page, '/sign-in');
        await page.getByRole('link', { name: 'Forgot your password?' }).click();
        await page.waitForURL(/\/forgot-password$/);
        await expectAccessible(page);
        await page.locator('#forgot-email').fill(registration.email);
        await page.getByRole('button', { name: 'Send reset link' }).click();
        await page.getByText(PASSWORD_RESET.accepted).waitFor();

        const mail = await eventually(
          async () => market.smtp.to(registration.email).find((m) => m.subject.includes('password')),
          'the reset mail',
        );
        expect(mail.subject).toBe('Reset your Offers Marketplace password');
        const link = new URL(linkIn(mail, 'http://shop.offers.test/reset-password?token='));
        const onSite = `/reset-password${link.search}`;

        await visit(page, onSite);
        await page.getByLabel('New password').fill('short');
        await page.getByRole('button', { name: 'Save new password' }).click();
        await page.getByText('Password must be at least 8 characters.').waitFor();
        await page.getByLabel('New password').fill(NEW_PASSWORD);
        await expectAccessible(page);
        await page.getByRole('button', { name: 'Save new password' }).click();
        await page.getByText(PASSWORD_RESET.done).waitFor();

        // The same link a second time says it is used up.
        await visit(page, onSite);
        await page.getByLabel('New password').fill('Another@2028');
        await page.getByRole('button', { name: 'Save new password' }).click();
        await page.getByText(PASSWORD_RESET.invalid).waitFor();

        await signIn(page, registration.email, NEW_PASSWORD);
      }),
    BROWSER_TEST_MS,
  );
});
