import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { MERCHANT_PASSWORD, merchantRegistration } from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';

let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('backoffice_registration');
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

type Registration = ReturnType<typeof merchantRegistration>;

async function fillRegistration(page: Page, registration: Registration) {
  await page.getByLabel('Merchant name').fill(registration.merchantName);
  await page.getByLabel('Brand name').fill(registration.brandName);
  await page.getByLabel('Industry').fill(registration.industry);
  await page.getByLabel('Category').fill(registration.category);
  await page.getByLabel('Address').fill(registration.address);
  await page.getByLabel('Email').fill(registration.email);
  await page.getByLabel('Mobile number').fill(registration.mobile);
  await page.getByLabel('Website').fill(registration.merchatURL);
  await page.getByLabel('Username').fill(registration.userName);
  await page.getByLabel('Password', { exact: true }).fill(registration.password);
  await page.getByLabel(/^I am 18 or older/).check();
}

describe('back-office: merchant registration', () => {
  it('a merchant registers from the sign-in page, then signs in to its dashboard', async () => {
    const page = await browser.newPage();
    const registration = merchantRegistration();
    await step(page, 'registration-form', async () => {
      await page.goto(`${site.url}/#/login`);
      await page.getByRole('link', { name: 'New merchant? Register your shop' }).click();
      await page.getByRole('heading', { name: 'Register your shop' }).waitFor();
      const submit = page.getByRole('button', { name: 'Submit' });
      await expect(submit.isDisabled()).resolves.toBe(true);
      await page.getByLabel('Mobile number').fill('12345');
      await page.getByLabel('Merchant name').focus();
      await page.getByText('Enter Valid Mobile no').waitFor();
      await page.getByLabel('Password', { exact: true }).fill('glow2026');
      await page.getByLabel('Merchant name').focus();
      await page.getByText('Password must contain a capital letter.').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await fillRegistration(page, registration);
      await expect(submit.isEnabled()).resolves.toBe(true);
      await submit.click();
      await page.getByText('Merchant Registered Successfully').waitFor();
      await page.getByRole('heading', { name: 'Sign in to the back-office' }).waitFor();
    });
    await step(page, 'registration-sign-in', async () => {
      await page.getByLabel('Username').fill(registration.userName);
      await page.getByLabel('Password', { exact: true }).fill(MERCHANT_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText(/^Welcome, /).waitFor();
    });
    await page.close();
  });

  it('a taken email is named on its field and nothing else is registered', async () => {
    const first = merchantRegistration();
    const registered = await send(market.api.baseUrl, {
      method: 'POST',
      url: '/api/auth/merchants/register',
      payload: first,
    });
    expect(registered.statusCode).toBe(201);
    const page = await browser.newPage();
    const second = merchantRegistration({ email: first.email });
    await step(page, 'registration-duplicate', async () => {
      await page.goto(`${site.url}/#/register`);
      await fillRegistration(page, second);
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByRole('alert').filter({ hasText: 'Merchant Registration Failed' }).waitFor();
      await page.getByText('Email already registered.').waitFor();
      await expect(page.getByLabel('Email').getAttribute('aria-invalid')).resolves.toBe('true');
      await expect(page.getByLabel('Email').getAttribute('aria-describedby')).resolves.toBeTruthy();
      expect(await seriousViolations(page)).toEqual([]);
    });
    const signIn = await send(market.api.baseUrl, {
      method: 'POST',
      url: '/api/auth/merchants/login',
      payload: { userName: second.userName, password: second.password },
    });
    expect(signIn.statusCode).toBe(401);
    await page.close();
  });

  it('a referral link fills the referral code the registration is sent with; an unknown code is named on its field', async () => {
    const referrer = merchantRegistration();
    const registered = await send(market.api.baseUrl, {
      method: 'POST',
      url: '/api/auth/merchants/register',
      payload: referrer,
    });
    const { referralCode } = registered.json() as { referralCode: string };
    const page = await browser.newPage();
    await step(page, 'registration-unknown-referral', async () => {
      await page.goto(`${site.url}/#/register?ref=NOSUCH99`);
      await fillRegistration(page, merchantRegistration());
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('This referral code does not exist.').waitFor();
      await expect(page.getByLabel('Referral code (optional)').getAttribute('aria-invalid')).resolves.toBe(
        'true',
      );
    });
    await step(page, 'registration-referral', async () => {
      await page.goto(`${site.url}/#/register?ref=${referralCode}`);
      await page.reload();
      await expect(page.getByLabel('Referral code (optional)').inputValue()).resolves.toBe(referralCode);
      await fillRegistration(page, merchantRegistration());
      await page.getByRole('button', { name: 'Submit' }).click();
      await page.getByText('Merchant Registered Successfully').waitFor();
    });
    await page.close();
  });
});
