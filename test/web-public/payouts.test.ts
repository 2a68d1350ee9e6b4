import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PAYOUT } from '@offers/api/rules';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { registerAndSignInUser, type Session } from '../support/accounts.js';
import { inContext, launchBrowser, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop, confirmedCashback } from '../support/payouts.js';
import { seriousViolations, serveSite, visit } from '../support/web-public.js';

/**
 * On a phone, a shopper withdraws confirmed cashback from My earnings: the balance and the
 * minimum, a request to a UPI ID and one to a bank account, the payouts listed with their states,
 * and the form's messages, the server's own when the balance changed behind the page.
 */
const BROWSER_TEST_MS = 120_000;
const PHONE = { width: 390, height: 844 };

let market: Marketplace;
let shop: CashbackShop;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('web_public_payouts');
  shop = await cashbackShop(market);
  site = await serveSite(market);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

/** Runs the steps as the signed-in shopper on a phone; on failure keeps a screenshot. */
async function onPhone(
  name: string,
  shopper: Session,
  steps: (page: Page, context: BrowserContext) => Promise<void>,
) {
  const context = await browser.newContext({ baseURL: site.url, viewport: PHONE, isMobile: true });
  await context.addCookies(
    shopper.cookie.split('; ').map((pair) => {
      const [cookieName, ...rest] = pair.split('=');
      return { name: cookieName!, value: rest.join('='), url: site.url };
    }),
  );
  await inContext(context, name, steps);
}

const expectAccessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

/** Nothing on the page is wider than the phone's screen. */
const fitsThePhone = async (page: Page) => {
  // Elements past the right edge, other than those inside a box that scrolls sideways by design.
  const wide = await page.evaluate(`[...document.querySelectorAll('main *')]
    .filter((element) => element.getBoundingClientRect().right > ${PHONE.width} + 1)
    .filter((element) => {
      for (let box = element.parentElement; box; box = box.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(box).overflowX)) return false;
      }
      return true;
    })
    .map((element) => element.tagName + '.' + element.className + '#' + element.id + ' ' + Math.round(element.getBoundingClientRect().right))`);
  expect(wide).toEqual([]);
  expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
};

describe('withdrawing cashback on a phone', () => {
  it(
    'requests payouts to a UPI ID and a bank account, sees them listed and the balance drop',
    async () => {
      const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
      await confirmedCashback(market, shop, shopper, '1000');

      await onPhone('payout-request', shopper, async (page) => {
        await visit(page, '/account/earnings');
        const available = page.getByTestId('available-balance');
        await expect(available.textContent()).resolves.toBe('₹1,000.00');
        await page.getByText('Minimum payout').waitFor();
        await page.getByText('₹250.00', { exact: true }).waitFor();
        await page.getByText('No payouts yet.').waitFor();
        await expectAccessible(page);
        await fitsThePhone(page);

        // The form checks as the shopper types, with the server's words, tied to the field.
        const amount = page.getByLabel(/^Amount/);
        await amount.fill('5000');
        await amount.blur();
        await page.getByText(PAYOUT.amount.aboveBalance).waitFor();
        await expect(amount.getAttribute('aria-invalid')).resolves.toBe('true');
        await expect(amount.getAttribute('aria-describedby')).resolves.toContain('payout-amount-error');
        const upiId = page.getByRole('textbox', { name: /^UPI ID/ });
        await upiId.fill('asha.rao');
        await upiId.blur();
        await page.getByText(PAYOUT.upiId.invalid).waitFor();
        await expectAccessible(page);

        await amount.fill('300');
        await upiId.fill('Asha.Rao@OKAXIS');
        await page.getByRole('button', { name: 'Request payout' }).click();
        await page.getByText('Payout of ₹300.00 requested. We will mail you when it is paid.').waitFor();
        await page.waitForFunction(
          () =>
            (
              globalThis as unknown as {
                document: { querySelector(s: string): { textContent: string } | null };
              }
            ).document.querySelector('[data-testid=available-balance]')?.textContent === '₹700.00',
        );
        const list = page.getByRole('list', { name: 'Your payouts' });
        await list.getByText('₹300.00').waitFor();
        await list.getByText('Requested', { exact: true }).waitFor();
        await list.getByText(/asha\.rao@okaxis/).waitFor();
        await expect(amount.inputValue()).resolves.toBe('');

        // To a bank account: the number shows its last four digits only.
        await page.getByRole('radio', { name: 'Bank account' }).check();
        await amount.fill('450.50');
        await page.getByLabel(/^Account number/).fill('5010 0234 5678 91');
        await page.getByLabel(/^IFSC/).fill('hdfc0001234');
        await page.getByLabel(/^Account holder/).fill('Asha Rao');
        await page.getByRole('button', { name: 'Request payout' }).click();
        await list.getByText(/XXXX7891 · HDFC0001234/).waitFor();
        await expect(available.textContent()).resolves.toBe('₹249.50');
        await expect(page.content()).resolves.not.toContain('50100234567891');
        // Below the minimum now: the page says when a payout becomes possible.
        await page.getByText('You can withdraw once your available balance reaches ₹250.00.').waitFor();
        await page.getByText('Payout of ₹450.50 requested. We will mail you when it is paid.').waitFor();
        await page.getByRole('button', { name: 'Request payout' }).waitFor({ state: 'hidden' });
        await expectAccessible(page);
        await fitsThePhone(page);
      });

      const rows = await market.api.dataSource.query(
        'SELECT amount_paise, method, upi_id, account_number, ifsc, state FROM payouts WHERE user_id = $1 ORDER BY id',
        [shopper.id],
      );
      expect(rows).toEqual([
        {
          amount_paise: '30000',
          method: 'upi',
          upi_id: 'asha.rao@okaxis',
          account_number: null,
          ifsc: null,
          state: 'requested',
        },
        {
          amount_paise: '45050',
          method: 'bank',
          upi_id: null,
          account_number: '50100234567891',
          ifsc: 'HDFC0001234',
          state: 'requested',
        },
      ]);
    },
    BROWSER_TEST_MS,
  );

  it(
    'shows the server’s message when the balance changed behind the page, and the states in Hindi',
    async () => {
      const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
      await confirmedCashback(market, shop, shopper, '600');

      await onPhone('payout-server-message-hi', shopper, async (page) => {
        await visit(page, '/hi/account/earnings');
        const amount = page.getByLabel(/^राशि/);
        await amount.waitFor();
        // Another device takes most of the balance while this page still shows ₹600.00.
        const elsewhere = await market.api.http.inject({
          method: 'POST',
          url: '/api/me/payouts',
          headers: shopper.bearer,
          payload: { amount: '500', upiId: 'asha@okaxis' },
        });
        expect(elsewhere.statusCode).toBe(201);

        await amount.fill('400');
        await page.getByRole('textbox', { name: /^UPI ID/ }).fill('asha@okaxis');
        await page.getByRole('button', { name: 'भुगतान का अनुरोध करें' }).click();
        // The API's message, in Hindi, on the amount field.
        const onField = page.locator('#payout-amount-error');
        await onField.getByText('राशि आपके उपलब्ध बैलेंस से अधिक है।').waitFor();
        await expect(amount.getAttribute('aria-invalid')).resolves.toBe('true');
        await expectAccessible(page);

        // An admin's payout run fails it: the shopper sees why, and the money is back.
        const id = elsewhere.json().id;
        await market.api.http.inject({
          method: 'POST',
          url: `/api/admin/payouts/${id}/fail`,
          headers: market.admin,
          payload: { reason: 'UPI ID not found' },
        });
        await page.reload();
        await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
        await page.getByText('भुगतान नहीं हुआ: UPI ID not found राशि वापस आपके बैलेंस में है।').waitFor();
        await page.getByText('नहीं हो सका', { exact: true }).waitFor();
        await expect(page.getByTestId('available-balance').textContent()).resolves.toBe('₹600.00');
        await fitsThePhone(page);
      });
    },
    BROWSER_TEST_MS,
  );
});
