import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PRIVACY_NOTICE_VERSION, SHOPPER_NOTICE_FIELDS } from '@offers/api/rules';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { registerAndSignInUser, USER_PASSWORD, uniqueContact } from '../support/accounts.js';
import { inContext, launchBrowser, REPO_ROOT, step, type WebApp } from '../support/browser.js';
import { htmlErrors } from '../support/html-checker.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { seriousViolations, serveSite, visit } from '../support/web-public.js';

/**
 * The registration's notice and the account's consents on a phone, in English, Hindi and Telugu:
 * the notice lists every field the form asks with its purpose and the notice's version; the form
 * cannot be sent without "I am 18 or older"; the optional consents start unticked and are recorded
 * as ticked; "Your consents" turns each one on or off in one click. The registration page passes
 * the Nu HTML Checker as the site's server sends it.
 */
const BROWSER_TEST_MS = 120_000;
const PHONE = { width: 390, height: 844 };
const LANGUAGES = ['en', 'hi', 'te'] as const;
type Language = (typeof LANGUAGES)[number];

let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('web_public_consents');
  site = await serveSite(market);
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

/** A text, or a section of texts, as the locale files nest them. */
type Texts = string & { [key: string]: Texts };

/** The site's own texts of a language: the checks read what the page should say from them. */
const read = (file: string) =>
  JSON.parse(readFileSync(join(REPO_ROOT, 'web-public', 'src', 'locales', file), 'utf8'));
const TEXTS = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, { ...read(`account/${lang}.json`), main: read(`${lang}.json`) }]),
) as Record<Language, { [section: string]: Texts } & { main: { msg: Record<string, string> } }>;
const fill = (text: string, params: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name) => String(params[name]));

/** A name that starts with `text` (a box's name goes on with what it covers). */
const startingWith = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

const prefix = (lang: Language) => (lang === 'en' ? '' : `/${lang}`);

async function onPhone(name: string, steps: (page: Page, context: BrowserContext) => Promise<void>) {
  const context = await browser.newContext({ baseURL: site.url, viewport: PHONE, isMobile: true });
  await inContext(context, name, steps);
}

const expectAccessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

/** The page is no wider than the phone: nothing to scroll sideways. */
const expectFitsPhone = async (page: Page) =>
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);

describe('the registration page', () => {
  it('passes the Nu HTML Checker as the site’s server sends it, in each language', async () => {
    for (const lang of LANGUAGES) {
      const response = await fetch(`${site.url}${prefix(lang)}/register`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain(TEXTS[lang].notice.title);
      expect(await htmlErrors(html)).toEqual([]);
    }
  }, 60_000);

  for (const lang of LANGUAGES) {
    it(
      `${lang}: shows the notice, needs the age confirmation, and records the consents ticked`,
      () =>
        onPhone(`consents-register-${lang}`, async (page) => {
          const text = TEXTS[lang];
          await step(page, `consents-register-notice-${lang}`, async () => {
            await visit(page, `${prefix(lang)}/register`);
            const notice = page.getByRole('region', { name: text.notice.title });
            await notice.waitFor();
            for (const { field, purpose } of SHOPPER_NOTICE_FIELDS) {
              await notice.getByText(text.register[field], { exact: false }).first().waitFor();
              await notice.getByText(text.notice.purposes[purpose]).waitFor();
            }
            await notice.getByText(fill(text.notice.version, { version: PRIVACY_NOTICE_VERSION })).waitFor();
            for (const purpose of ['newsletter', 'store_alerts', 'offers_by_mail'] as const) {
              const box = page.getByRole('checkbox', { name: startingWith(text.consents[purpose].name) });
              await expect(box.isChecked()).resolves.toBe(false);
            }
            await expectAccessible(page);
            await expectFitsPhone(page);
          });

          const { email, mobile } = uniqueContact();
          await step(page, `consents-register-age-${lang}`, async () => {
            await page.getByLabel(text.register.userName).fill('Kavya Reddy');
            await page.getByRole('textbox', { name: text.register.email, exact: true }).fill(email);
            await page.getByLabel(new RegExp(`^${text.register.password}`)).fill(USER_PASSWORD);
            await page.getByLabel(text.register.mobileNumber).fill(mobile);
            await page
              .getByRole('textbox', { name: text.register.address, exact: true })
              .fill('3 Tank Bund, Hyderabad');
            await page.getByRole('checkbox', { name: startingWith(text.consents.store_alerts.name) }).check();
            await page.getByRole('button', { name: text.register.submit }).click();
            const ageMessage = text.main.msg['Please confirm that you are 18 or older.'] as string;
            await page.getByText(ageMessage).waitFor();
            const adult = page.getByRole('checkbox', { name: fill(text.consents.adult, { age: 18 }) });
            await expect(adult.getAttribute('aria-invalid')).resolves.toBe('true');
            await expectAccessible(page);
            const [{ users }] = await market.api.dataSource.query(
              'SELECT count(*)::int AS users FROM users WHERE email = $1',
              [email],
            );
            expect(users).toBe(0);
          });
          await page
            .getByRole('checkbox', { name: startingWith(fill(text.consents.adult, { age: 18 })) })
            .check();
          await page.getByRole('button', { name: text.register.submit }).click();
          await page.waitForURL(new RegExp(`${prefix(lang)}/sign-in\\?registered=1$`));

          const rows = await market.api.dataSource.query(
            `SELECT c.purpose, c.given, c.notice_version AS "noticeVersion" FROM consents c
             JOIN users u ON u.id = c.holder_id AND c.holder_kind = 'shopper'
             WHERE u.email = $1 ORDER BY c.purpose`,
            [email],
          );
          expect(rows).toEqual([
            { purpose: 'newsletter', given: false, noticeVersion: PRIVACY_NOTICE_VERSION },
            { purpose: 'offers_by_mail', given: false, noticeVersion: PRIVACY_NOTICE_VERSION },
            { purpose: 'store_alerts', given: true, noticeVersion: PRIVACY_NOTICE_VERSION },
          ]);
        }),
      BROWSER_TEST_MS,
    );
  }
});

describe('Your consents', () => {
  for (const lang of LANGUAGES) {
    it(
      `${lang}: shows each consent and turns one off and on in one click`,
      () =>
        onPhone(`consents-account-${lang}`, async (page) => {
          const text = TEXTS[lang];
          const { session, registration } = await registerAndSignInUser(market.api.baseUrl, {
            consents: ['store_alerts'],
            language: lang,
          });
          await visit(page, `${prefix(lang)}/sign-in`);
          await page.locator('#signin-emailOrMobile').fill(registration.email);
          await page.locator('#signin-password').fill(USER_PASSWORD);
          await page.locator('button.primary[type="submit"]').click();
          await page.waitForURL(new RegExp(`${prefix(lang)}/account$`));

          const item = (purpose: string) =>
            page
              .getByRole('listitem')
              .filter({ has: page.getByRole('heading', { name: text.consents[purpose].name }) });
          await step(page, `consents-account-shown-${lang}`, async () => {
            await page
              .getByRole('navigation', { name: text.account.menu })
              .getByRole('link', { name: text.account.privacy })
              .click();
            await page.getByRole('heading', { level: 1, name: text.consents.title }).waitFor();
            await item('store_alerts').getByRole('button', { name: text.consents.withdraw }).waitFor();
            await item('newsletter').getByRole('button', { name: text.consents.give }).waitFor();
            await item('offers_by_mail').getByText(text.consents.off, { exact: true }).waitFor();
            await expectAccessible(page);
            await expectFitsPhone(page);
          });

          await step(page, `consents-account-withdrawn-${lang}`, async () => {
            await item('store_alerts').getByRole('button', { name: text.consents.withdraw }).click();
            await item('store_alerts').getByRole('button', { name: text.consents.give }).waitFor();
            await item('store_alerts').getByText(text.consents.off, { exact: true }).waitFor();
            await page.getByText(text.main.msg['Consent withdrawn.'] as string, { exact: false }).waitFor();
            await expectAccessible(page);
          });
          const latest = async () =>
            (
              await market.api.dataSource.query(
                `SELECT given FROM consents WHERE holder_kind = 'shopper' AND holder_id = $1
                 AND purpose = 'store_alerts' ORDER BY id DESC LIMIT 1`,
                [session.id],
              )
            )[0].given;
          expect(await latest()).toBe(false);

          await item('store_alerts').getByRole('button', { name: text.consents.give }).click();
          await item('store_alerts').getByRole('button', { name: text.consents.withdraw }).waitFor();
          expect(await latest()).toBe(true);
        }),
      BROWSER_TEST_MS,
    );
  }
});
