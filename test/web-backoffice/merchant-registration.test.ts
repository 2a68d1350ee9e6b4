import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MERCHANT_NOTICE_FIELDS, PRIVACY_NOTICE_VERSION } from '@offers/api/rules';
import type { Browser, Page } from 'playwright-core';
import { MERCHANT_PASSWORD, merchantRegistration } from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { htmlErrors } from '../support/html-checker.js';
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

  const PHONE = { width: 390, height: 844 };
  /** What the notice says in each language (web-backoffice/src/i18n). */
  const NOTICE = {
    en: {
      menu: undefined,
      title: 'What we ask and why',
      version: `Notice version ${PRIVACY_NOTICE_VERSION}.`,
      adult: 'I am 18 or older.',
    },
    hi: {
      menu: 'हिन्दी',
      title: 'हम क्या पूछते हैं और क्यों',
      version: `सूचना संस्करण ${PRIVACY_NOTICE_VERSION}।`,
      adult: 'मेरी उम्र 18 वर्ष या उससे अधिक है।',
    },
    te: {
      menu: 'తెలుగు',
      title: 'మేము ఏమి అడుగుతాము, ఎందుకు',
      version: `నోటీసు వెర్షన్ ${PRIVACY_NOTICE_VERSION}.`,
      adult: 'నా వయసు 18 సంవత్సరాలు లేదా అంతకంటే ఎక్కువ.',
    },
  } as const;

  for (const lang of ['en', 'hi', 'te'] as const) {
    it(`${lang}: on a phone, the notice lists each field with its purpose, and registering needs the age confirmation`, async () => {
      const page = await browser.newPage({ viewport: PHONE, isMobile: true });
      const text = NOTICE[lang];
      await step(page, `registration-notice-${lang}`, async () => {
        await page.goto(`${site.url}/#/register`);
        if (text.menu) {
          await page.getByRole('button', { name: 'English', exact: true }).click();
          await page.getByRole('menuitem', { name: text.menu }).click();
        }
        const notice = page.getByRole('region', { name: text.title });
        await notice.waitFor();
        await notice.getByText(text.version).waitFor();
        const purposes = await notice.locator('dd').allTextContents();
        expect(purposes).toHaveLength(new Set(MERCHANT_NOTICE_FIELDS.map((field) => field.purpose)).size);
        for (const purpose of purposes) expect(purpose).not.toMatch(/^offers\.|^$/);
        // The page as the browser built it passes the Nu HTML Checker (before axe adds its script).
        expect(await htmlErrors(await page.content())).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      });
      await step(page, `registration-age-${lang}`, async () => {
        const registration = merchantRegistration();
        await page.getByRole('textbox').first().fill(registration.merchantName);
        const submit = page.locator('form button[type="submit"]');
        const adult = page.getByRole('checkbox', { name: new RegExp(`^${text.adult}`) });
        await adult.check();
        await adult.uncheck();
        await expect(adult.getAttribute('aria-invalid')).resolves.toBe('true');
        await expect(submit.isDisabled()).resolves.toBe(true);
        expect(await seriousViolations(page)).toEqual([]);
      });
      await page.close();
    }, 60_000);
  }
});
