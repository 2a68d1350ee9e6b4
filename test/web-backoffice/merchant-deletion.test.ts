import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deletionLinkToken } from '@offers/api/read-models';
import { ACCOUNT_DELETION } from '@offers/api/rules';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible } from '../support/accessibility.js';
import { merchantRegistration } from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { TEST_SESSION_SECRET } from '../support/test-environment.js';

/**
 * A merchant deletes its account from the profile: asked there, confirmed through the mailed
 * link (every session ends), and on signing in again it lands on the profile, which says when the
 * account goes and keeps it at a click.
 */
let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('backoffice_merchant_deletion');
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

async function signIn(page: Page, registration: { userName: string; password: string }) {
  await page.goto(`${site.url}/#/login`);
  await page.getByLabel('Username').fill(registration.userName);
  await page.getByLabel('Password', { exact: true }).fill(registration.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe("back-office: deleting a merchant's account", () => {
  it('asks from the profile, and after the mailed link, signing in offers to keep the account', async () => {
    const registration = merchantRegistration();
    const registered = await send(market.api.baseUrl, {
      method: 'POST',
      url: '/api/auth/merchants/register',
      payload: registration,
    });
    expect(registered.statusCode).toBe(201);
    const merchantId = registered.json().merchantId as number;
    const page = await browser.newPage();
    await signIn(page, registration);
    await page.getByText(/^Welcome, /).waitFor();

    await step(page, 'merchant-deletion-ask', async () => {
      await page.getByRole('menuitem', { name: 'Profile' }).click();
      await page.getByRole('heading', { name: 'Delete the account' }).waitFor();
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Delete the account' }).click();
      await page.getByRole('status').getByText(ACCOUNT_DELETION.requested).waitFor();
      expectAccessible(await seriousViolations(page));
    });

    const [request] = await market.api.dataSource.query(
      `SELECT id::text, requested_at AS "requestedAt" FROM deletion_requests
       WHERE person_kind = 'merchant' AND person_id = $1`,
      [merchantId],
    );
    const token = deletionLinkToken(TEST_SESSION_SECRET, 'confirm', request.id, request.requestedAt);
    const confirmed = await market.api.http.inject({
      method: 'POST',
      url: `/api/account-deletion/confirm?token=${encodeURIComponent(token)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'confirm=1',
    });
    expect(confirmed.statusCode).toBe(200);

    await step(page, 'merchant-deletion-scheduled', async () => {
      await signIn(page, registration);
      await page.getByText(/^This account will be deleted on /).waitFor();
      expect(page.url()).toMatch(/#\/profile$/);
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Keep the account' }).click();
      await page.getByText(ACCOUNT_DELETION.cancelled).waitFor();
    });
    const [after] = await market.api.dataSource.query(
      "SELECT state FROM deletion_requests WHERE person_kind = 'merchant' AND person_id = $1",
      [merchantId],
    );
    expect(after.state).toBe('cancelled');
    await page.close();
  }, 120_000);
});
