import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { registerAndSignInMerchant, registerAndSignInUser, USER_PASSWORD } from '../support/accounts.js';
import { inContext, launchBrowser, step, type WebApp } from '../support/browser.js';
import { approve, type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';
import { seriousViolations, serveSite, untilAllListed, visit } from '../support/web-public.js';

/**
 * Cashback a shopper sees before the click, in Chromium on the production build, on a phone and a
 * desktop, in English and Hindi: the rate on the cards and in the reveal, the store page's rate
 * table, terms and days to confirm, and the choice a visitor not signed in is given before the
 * click-out (sign in and come back to the store, or go on without cashback).
 */

const BROWSER_TEST_MS = 120_000;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

let market: Marketplace;
let site: WebApp;
let browser: Browser;
let shopperEmail: string;
/** A store with its own rates, and one whose rates give nothing. */
let paid: { slug: string; couponId: number };
let none: { slug: string };

const TEXTS = {
  en: {
    section: 'Cashback at Saffron Skin',
    summary: 'Up to 7% cashback',
    rows: [
      ['Skin Care', '7%'],
      ['Every other purchase', '4%'],
    ],
    confirm: 'Cashback confirmed in about 45 days',
    terms: 'Cashback on full-price items only.',
    card: '+ up to 7% cashback',
    getCode: 'Get code',
    earn: 'Earn up to 7% cashback when you buy through this offer.',
    goTo: 'Go to Saffron Skin',
    choice: 'Earn up to 7% cashback on this purchase',
    signIn: 'Sign in to earn cashback',
    continue: 'Continue without cashback',
    emailOrMobile: 'Email or mobile number',
    password: 'Password',
    submit: 'Sign in',
  },
  hi: {
    section: 'Saffron Skin पर कैशबैक',
    summary: '7% तक कैशबैक',
    rows: [
      // The shop front's category in the page's language.
      ['त्वचा की देखभाल', '7%'],
      ['बाकी हर ख़रीदारी', '4%'],
    ],
    confirm: 'कैशबैक लगभग 45 दिनों में पक्का होता है',
    terms: 'केवल पूरी क़ीमत वाले सामान पर कैशबैक।',
    card: '+ 7% तक कैशबैक',
    getCode: 'कोड पाएँ',
    earn: 'इस ऑफ़र से ख़रीदारी पर 7% तक कैशबैक पाएँ।',
    goTo: 'Saffron Skin पर जाएँ',
    choice: 'इस ख़रीदारी पर 7% तक कैशबैक पाएँ',
    signIn: 'कैशबैक पाने के लिए साइन इन करें',
    continue: 'बिना कैशबैक के आगे बढ़ें',
    emailOrMobile: 'ईमेल या मोबाइल नंबर',
    password: 'पासवर्ड',
    submit: 'साइन इन',
  },
} as const;
type Language = keyof typeof TEXTS;
const prefix = (language: Language) => (language === 'en' ? '' : `/${language}`);

beforeAll(async () => {
  market = await startMarketplace('web_public_cashback');
  const [{ session: saffron }, { session: plain }, shopper] = await Promise.all([
    registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Saffron Skin' }),
    registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Plain Soap Co' }),
    registerAndSignInUser(market.api.baseUrl),
  ]);
  shopperEmail = shopper.registration.email;
  const couponId = await submitCoupon(market, saffron, { title: 'Saffron glow serum 20% off' });
  const plainCoupon = await submitCoupon(market, plain, { title: 'Plain bar soap 10% off' });
  for (const id of [couponId, plainCoupon]) expect((await approve(market, id)).statusCode).toBe(200);
  const admin = (url: string, payload: unknown) =>
    market.api.http.inject({ method: 'PUT', url, payload, headers: market.admin });
  const saved = await admin(`/api/admin/cashback-rates/${saffron.id}`, {
    base: { percent: '4' },
    categories: [{ name: 'Skin Care', rate: { percent: '7' } }],
    terms: { en: TEXTS.en.terms, hi: TEXTS.hi.terms, te: '' },
    confirmDays: 45,
  });
  expect(saved.statusCode).toBe(200);
  expect((await admin(`/api/admin/cashback-rates/${plain.id}`, { base: { percent: '0' } })).statusCode).toBe(
    200,
  );
  await untilAllListed(market, 2);
  paid = { slug: 'saffron-skin', couponId };
  none = { slug: 'plain-soap-co' };
  site = await serveSite(market);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

const expectAccessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

/** Opens the coupon's reveal and its "Go to" choice; answers the choice dialog. */
async function openChoice(page: Page, text: (typeof TEXTS)[Language]) {
  const card = page.locator('.coupon-card', { hasText: 'Saffron glow serum' });
  await card.getByRole('button', { name: text.getCode }).click();
  const reveal = page.getByRole('dialog', { name: /Saffron glow serum/ });
  await reveal.getByText(text.earn).waitFor();
  await reveal.getByRole('button', { name: text.goTo }).click();
  const choice = page.getByRole('dialog', { name: text.choice });
  await choice.waitFor();
  return { reveal, choice };
}

describe('cashback before the click', () => {
  it.each<[Language, { width: number; height: number }]>([
    ['en', PHONE],
    ['hi', DESKTOP],
    ['hi', PHONE],
    ['en', DESKTOP],
  ])(
    '%s at %o: the store page’s rates and terms, the cards, and the choice before the click-out',
    async (language, viewport) => {
      const text = TEXTS[language];
      const name = `cashback-${language}-${viewport.width}`;
      const context = await browser.newContext({ baseURL: site.url, viewport, isMobile: viewport === PHONE });
      // The shop's own site is not reached: any other host answers with an empty page.
      await context.route(
        (url) => url.hostname !== '127.0.0.1',
        (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>shop</title>' }),
      );
      await inContext(context, name, async (page) => {
        await step(page, `${name}-store`, async () => {
          await visit(page, `${prefix(language)}/store/${paid.slug}`);
          const section = page.getByRole('region', { name: text.section });
          await expect(section.getByText(text.summary, { exact: true }).isVisible()).resolves.toBe(true);
          const rows = await section
            .getByRole('table')
            .locator('tbody tr')
            .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)));
          expect(rows).toEqual(text.rows);
          await expect(section.getByText(text.confirm).isVisible()).resolves.toBe(true);
          await expect(section.getByText(text.terms).isVisible()).resolves.toBe(true);
          const card = page.locator('.coupon-card', { hasText: 'Saffron glow serum' });
          await expect(card.locator('.cashback-tag').textContent()).resolves.toBe(text.card);
          await expectAccessible(page);
        });

        // Not signed in: the way to the shop first asks; going on without cashback is the click-out.
        const choice = await step(page, `${name}-choice`, async () => {
          const { choice } = await openChoice(page, text);
          // The first choice takes the focus.
          await expect(page.evaluate('document.activeElement.textContent')).resolves.toBe(text.signIn);
          await expectAccessible(page);
          return choice;
        });
        await step(page, `${name}-continue`, async () => {
          // Escape closes the choice alone and gives the focus back to the way to the shop.
          await page.keyboard.press('Escape');
          await expect(choice.isVisible()).resolves.toBe(false);
          const reveal = page.getByRole('dialog', { name: /Saffron glow serum/ });
          await expect(reveal.isVisible()).resolves.toBe(true);
          await expect(page.evaluate('document.activeElement.textContent')).resolves.toBe(text.goTo);
          await page.keyboard.press('Enter');
          await choice.waitFor();
          const onward = choice.getByRole('link', { name: text.continue });
          await expect(onward.getAttribute('href')).resolves.toBe(`/api/out/${paid.couponId}`);
          const popup = page.waitForEvent('popup');
          await onward.click();
          const shop = await popup;
          await shop.waitForURL(/subid=[\w-]{22}$/);
          await shop.close();
          await expect(choice.isVisible()).resolves.toBe(false);
        });

        if (viewport === PHONE) {
          // Sign in to earn it: the sign-in page, then back on the store's page, signed in, where
          // the way to the shop goes straight out.
          await step(page, `${name}-sign-in`, async () => {
            // The reveal is still open, with the code: its way to the shop asks again.
            const reveal = page.getByRole('dialog', { name: /Saffron glow serum/ });
            await reveal.getByRole('button', { name: text.goTo }).click();
            await page
              .getByRole('dialog', { name: text.choice })
              .getByRole('link', { name: text.signIn })
              .click();
            await page.waitForURL((url) => url.pathname === `${prefix(language)}/sign-in`);
            await page.getByLabel(text.emailOrMobile).fill(shopperEmail);
            await page.getByLabel(new RegExp(`^${text.password}`)).fill(USER_PASSWORD);
            await page.getByRole('button', { name: text.submit, exact: true }).click();
            await page.waitForURL((url) => url.pathname === `${prefix(language)}/store/${paid.slug}`);
            const card = page.locator('.coupon-card', { hasText: 'Saffron glow serum' });
            await card.getByRole('button', { name: text.getCode }).click();
            const straight = reveal.getByRole('link', { name: text.goTo });
            await expect(straight.getAttribute('href')).resolves.toBe(`/api/out/${paid.couponId}`);
            await expectAccessible(page);
          });
        } else {
          // A store whose rates give nothing says nothing of cashback, and its way out asks nothing.
          await step(page, `${name}-none`, async () => {
            await visit(page, `${prefix(language)}/store/${none.slug}`);
            await expect(page.locator('.store-cashback, .cashback-tag').count()).resolves.toBe(0);
            const card = page.locator('.coupon-card', { hasText: 'Plain bar soap' });
            await card.getByRole('button', { name: text.getCode }).click();
            const reveal = page.getByRole('dialog', { name: /Plain bar soap/ });
            await reveal.getByRole('link', { name: /Plain Soap Co/ }).waitFor();
            await expect(reveal.locator('.reveal-cashback').count()).resolves.toBe(0);
          });
        }
      });
    },
    BROWSER_TEST_MS,
  );
});
