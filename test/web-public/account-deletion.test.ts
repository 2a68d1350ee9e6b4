import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { deletionLinkToken } from '@offers/api/read-models';
import { ACCOUNT_DELETION, localePath } from '@offers/api/rules';
import type { Browser, Page } from 'playwright-core';
import { registerAndSignInUser, USER_PASSWORD } from '../support/accounts.js';
import { inContext, launchBrowser, REPO_ROOT, step, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop, confirmedCashback } from '../support/payouts.js';
import { TEST_SESSION_SECRET } from '../support/test-environment.js';
import { seriousViolations, serveSite, visit } from '../support/web-public.js';

/**
 * On a phone, in English, Hindi and Telugu: a shopper with unpaid cashback asks to delete the
 * account from "Password and sessions", is told to give the money up first, ticks the box and is
 * told to confirm by mail; once confirmed (the mailed link), signing in leads to the page that
 * says when the account goes and offers to keep it, which cancels the deletion.
 */
const PHONE = { width: 390, height: 844 };
const LANGUAGES = ['en', 'hi', 'te'] as const;
type Language = (typeof LANGUAGES)[number];

let market: Marketplace;
let shop: CashbackShop;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('web_public_account_deletion');
  shop = await cashbackShop(market);
  site = await serveSite(market);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

/** The site's texts in a language: the account chunk's and the API's messages. */
function textsOf(language: Language) {
  const account = JSON.parse(
    readFileSync(join(REPO_ROOT, `web-public/src/locales/account/${language}.json`), 'utf8'),
  );
  const main = JSON.parse(readFileSync(join(REPO_ROOT, `web-public/src/locales/${language}.json`), 'utf8'));
  const msg = (english: string): string => (language === 'en' ? english : (main.msg[english] ?? english));
  return { deletion: account.deletion as Record<string, string>, signIn: account.signIn, msg };
}

const expectAccessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

/** Follows the mailed confirmation link, as the workers would have made it, through the API. */
async function confirmByLink(shopperId: number) {
  const [request] = await market.api.dataSource.query(
    `SELECT id::text, requested_at AS "requestedAt" FROM deletion_requests
     WHERE person_kind = 'shopper' AND person_id = $1 AND state = 'awaiting_confirmation'`,
    [shopperId],
  );
  const token = deletionLinkToken(TEST_SESSION_SECRET, 'confirm', request.id, request.requestedAt);
  const confirmed = await market.api.http.inject({
    method: 'POST',
    url: `/api/account-deletion/confirm?token=${encodeURIComponent(token)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'confirm=1',
  });
  expect(confirmed.statusCode).toBe(200);
}

describe('deleting the account on a phone', () => {
  for (const language of LANGUAGES) {
    it(`asks, is told to confirm by mail, then keeps the account after signing in (${language})`, async () => {
      const texts = textsOf(language);
      const { registration, session } = await registerAndSignInUser(market.api.baseUrl);
      await confirmedCashback(market, shop, session, '120');
      const context = await browser.newContext({ baseURL: site.url, viewport: PHONE, isMobile: true });
      await context.addCookies(
        session.cookie.split('; ').map((pair) => {
          const [name, ...rest] = pair.split('=');
          return { name: name!, value: rest.join('='), url: site.url };
        }),
      );
      await inContext(context, `deletion-${language}`, async (page) => {
        await step(page, `deletion-${language}-ask`, async () => {
          await visit(page, localePath(language, '/account/security'));
          await page.getByRole('heading', { name: texts.deletion.title }).waitFor();
          await expectAccessible(page);
        });
        await step(page, `deletion-${language}-refused`, async () => {
          await page.getByRole('button', { name: texts.deletion.ask }).click();
          await page.getByText(texts.msg(ACCOUNT_DELETION.refused.unpaidMoney)).waitFor();
          await expectAccessible(page);
        });
        await step(page, `deletion-${language}-asked`, async () => {
          await page.getByLabel(texts.deletion.giveUp).check();
          await page.getByRole('button', { name: texts.deletion.ask }).click();
          await page.getByText(texts.msg(ACCOUNT_DELETION.requested)).waitFor();
          await expectAccessible(page);
        });

        await confirmByLink(session.id);

        await step(page, `deletion-${language}-scheduled`, async () => {
          // Every session ended: the shopper signs in again and lands where the deletion shows.
          await visit(page, localePath(language, '/sign-in'));
          await page.locator('#signin-emailOrMobile').fill(registration.email as string);
          await page.locator('#signin-password').fill(USER_PASSWORD);
          await page.getByRole('button', { name: texts.signIn.submit, exact: true }).click();
          await page.getByRole('heading', { name: texts.deletion.scheduledTitle }).waitFor();
          await page.waitForURL(new RegExp(`${localePath(language, '/account/security')}$`));
          await expectAccessible(page);
        });
        await step(page, `deletion-${language}-kept`, async () => {
          await page.getByRole('button', { name: texts.deletion.cancel }).click();
          await page.getByText(texts.msg(ACCOUNT_DELETION.cancelled)).waitFor();
          await page.getByRole('heading', { name: texts.deletion.title }).waitFor();
          await expectAccessible(page);
        });
      });
      const [request] = await market.api.dataSource.query(
        `SELECT state, gives_up_unpaid_paise::int AS "givesUp" FROM deletion_requests
         WHERE person_kind = 'shopper' AND person_id = $1`,
        [session.id],
      );
      expect(request).toEqual({ state: 'cancelled', givesUp: 12_000 });
    }, 120_000);
  }
});
