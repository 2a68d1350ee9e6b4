import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible } from '../support/accessibility.js';
import { BEARER_SIGN_IN, merchantRegistration, sessionFrom } from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';

let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('backoffice_merchant');
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

async function signedInMerchant(page: Page) {
  const registration = merchantRegistration();
  const registered = await send(market.api.baseUrl, {
    method: 'POST',
    url: '/api/auth/merchants/register',
    payload: registration,
  });
  expect(registered.statusCode).toBe(201);
  await page.goto(`${site.url}/#/login`);
  await page.getByLabel('Username').fill(registration.userName);
  await page.getByLabel('Password', { exact: true }).fill(registration.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(/^Welcome, /).waitFor();
  const session = sessionFrom(
    await send(market.api.baseUrl, {
      method: 'POST',
      url: '/api/auth/merchants/login',
      headers: BEARER_SIGN_IN,
      payload: { userName: registration.userName, password: registration.password },
    }),
    registered.json().merchantId,
  );
  return { registration, session };
}

describe("back-office: a merchant's own account", () => {
  it('profile with its email state, and the referral link shared by WhatsApp', async () => {
    const page = await browser.newPage();
    await signedInMerchant(page);
    await step(page, 'profile', async () => {
      await page.getByRole('menuitem', { name: 'Profile' }).click();
      await page.getByText('Email address not confirmed yet: open the link we emailed you.').waitFor();
      expectAccessible(await seriousViolations(page));
      await page.getByLabel('Mobile number').fill('12345');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Enter Valid Mobile no').waitFor();
      await page.getByLabel('Mobile number').fill('9876501234');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Profile saved.').waitFor();
    });
    await step(page, 'referral', async () => {
      await page.getByRole('menuitem', { name: 'Refer a merchant' }).click();
      const share = page.getByRole('link', { name: 'Share on WhatsApp' });
      await expect(share.getAttribute('href')).resolves.toMatch(/^https:\/\/wa\.me\/\?text=/);
      await page.getByLabel("Friend's mobile number").fill('9123456780');
      await page.locator('a[href^="https://wa.me/919123456780"]').waitFor();
      expectAccessible(await seriousViolations(page));
    });
    await page.close();
  });

  it('Refer a merchant links to the merchant registration with the referral code filled in', async () => {
    const page = await browser.newPage();
    const { session } = await signedInMerchant(page);
    const profile = await market.api.http.inject({
      method: 'GET',
      url: '/api/merchant/profile',
      headers: session.bearer,
    });
    const { referralCode } = profile.json() as { referralCode: string };
    const registrationLink = `${site.url}/#/register?ref=${referralCode}`;
    await step(page, 'refer-a-merchant', async () => {
      await page.getByRole('menuitem', { name: 'Refer a merchant' }).click();
      const link = page.getByRole('link', { name: registrationLink });
      await expect(link.getAttribute('href')).resolves.toBe(registrationLink);
      // What WhatsApp sends carries the same link.
      const share = await page.getByRole('link', { name: 'Share on WhatsApp' }).getAttribute('href');
      expect(new URL(share ?? '').searchParams.get('text')).toContain(registrationLink);
      const [registration] = await Promise.all([page.waitForEvent('popup'), link.click()]);
      await registration.getByRole('heading', { name: 'Register your shop' }).waitFor();
      await expect(registration.getByLabel('Referral code (optional)').inputValue()).resolves.toBe(
        referralCode,
      );
      await registration.close();
    });
    await page.close();
  });

  it('a pending coupon is edited, then withdrawn', async () => {
    const page = await browser.newPage();
    const { session } = await signedInMerchant(page);
    const couponId = await submitCoupon(market, session, { title: 'Monsoon offer' });
    await step(page, 'coupon-edit', async () => {
      await page.goto(`${site.url}/#/coupons/${couponId}`);
      await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Monsoon offer, extended');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('cell', { name: 'Monsoon offer, extended' }).waitFor();
      expectAccessible(await seriousViolations(page));
    });
    await step(page, 'coupon-withdraw', async () => {
      await page.goto(`${site.url}/#/coupons/${couponId}`);
      await page.getByRole('button', { name: 'Withdraw' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await page
        .getByRole('row')
        .filter({ hasText: 'Monsoon offer, extended' })
        .getByText('Withdrawn')
        .waitFor();
    });
    const record = await market.api.http.inject({
      method: 'GET',
      url: `/api/merchant/coupons/${couponId}`,
      headers: session.bearer,
    });
    expect(record.json()).toMatchObject({ title: 'Monsoon offer, extended', status: 'withdrawn' });
    await page.close();
  });
});
