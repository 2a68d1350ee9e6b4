import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD } from '@offers/api/demo';
import type { Browser } from 'playwright-core';
import { expectAccessible } from '../support/accessibility.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('backoffice_engagement');
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

describe('back-office: subscribers, campaigns and contact messages', () => {
  it('an admin handles a contact message, sees a subscriber and sends a campaign', async () => {
    const contact = await market.api.http.inject({
      method: 'POST',
      url: '/api/contact',
      payload: {
        name: 'Ravi Kumar',
        email: 'ravi@example.in',
        mobile: '9876543210',
        msg: 'My code did not work.',
      },
    });
    expect(contact.statusCode).toBe(201);
    const subscribed = await market.api.http.inject({
      method: 'POST',
      url: '/api/newsletter',
      payload: { email: 'meena@example.in' },
    });
    expect(subscribed.statusCode).toBe(202);

    const page = await browser.newPage();
    await step(page, 'dashboard', async () => {
      await page.goto(`${site.url}/#/login`);
      await page.getByRole('tab', { name: 'Admin' }).click();
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password', { exact: true }).fill(DEVELOPMENT_ADMIN_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText(/^Welcome, /).waitFor();
      // One unhandled message, counted from the list's total.
      await page.getByRole('link', { name: 'Open: Contact messages' }).waitFor();
      await page.waitForLoadState('networkidle');
      expectAccessible(await seriousViolations(page));
    });

    await step(page, 'contact-message', async () => {
      await page.getByRole('link', { name: 'Open: Contact messages' }).click();
      const row = page.getByRole('row').filter({ hasText: 'My code did not work.' });
      await row.waitFor();
      expectAccessible(await seriousViolations(page));
      await row.getByRole('button', { name: 'Mark handled' }).click();
      await page.getByText('Marked as handled.').waitFor();
    });
    await eventually(async () => {
      const messages = await market.api.http.inject({
        method: 'GET',
        url: '/api/admin/contact-messages',
        headers: market.admin,
      });
      return messages.json()[0]?.handled === true;
    }, 'the message to be handled');

    await step(page, 'subscribers', async () => {
      await page.goto(`${site.url}/#/subscribers`);
      await page
        .getByRole('row')
        .filter({ hasText: 'meena@example.in' })
        .getByText('Waiting for confirmation')
        .waitFor();
      expectAccessible(await seriousViolations(page));
    });

    await step(page, 'campaign', async () => {
      await page.goto(`${site.url}/#/campaigns/create`);
      await page.getByLabel('Subject').fill('Diwali deals are here');
      await page.getByLabel('Message').fill('Fresh coupons from your favourite shops.');
      await page.getByRole('button', { name: 'Save' }).click();
      const row = page.getByRole('row').filter({ hasText: 'Diwali deals are here' });
      await row.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
      await page.getByText('Sending started.').waitFor();
      await row.getByText(/of \d+ sent/).waitFor();
      expectAccessible(await seriousViolations(page));
    });

    await step(page, 'dev-mailbox', async () => {
      await page.goto(`${site.url}/#/dev-mailbox`);
      await page.getByRole('heading', { name: 'Development mailbox' }).first().waitFor();
      expectAccessible(await seriousViolations(page));
    });
    await page.close();
  });
});
