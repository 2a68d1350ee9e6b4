import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PAYOUT } from '@offers/api/rules';
import type { Browser, Page } from 'playwright-core';
import { expectAccessible } from '../support/accessibility.js';
import { registerAndSignInUser, type Session } from '../support/accounts.js';
import { signInAsAdmin as signInAsDevelopmentAdmin } from '../support/backoffice.js';
import { launchBrowser, seriousViolations, serveWebApp, step, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop, confirmedCashback } from '../support/payouts.js';

let market: Marketplace;
let shop: CashbackShop;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('backoffice_payouts');
  shop = await cashbackShop(market);
  site = await serveWebApp('web-backoffice', market.api.baseUrl);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

const signInAsAdmin = (page: Page) => signInAsDevelopmentAdmin(page, site.url);

/** A shopper of its own, with confirmed cashback, asking for a payout; returns its id. */
async function requestedPayout(name: string, cashback: string, request: Record<string, unknown>) {
  const { session } = await registerAndSignInUser(market.api.baseUrl, { userName: name });
  await confirmedCashback(market, shop, session, cashback);
  return payoutOf(session, request);
}

async function payoutOf(shopper: Session, request: Record<string, unknown>) {
  const answer = await market.api.http.inject({
    method: 'POST',
    url: '/api/me/payouts',
    headers: shopper.bearer,
    payload: request,
  });
  if (answer.statusCode !== 201) throw new Error(`payout not requested: ${answer.body}`);
  return answer.json().id as number;
}

const payoutRows = (ids: number[]) =>
  market.api.dataSource.query(
    'SELECT id, state, bank_reference AS "bankReference", failure_reason AS "failureReason" FROM payouts WHERE id = ANY($1) ORDER BY id',
    [ids],
  );

describe('back-office: the payout queue', () => {
  it('an admin takes payouts into a run, marks them paid in bulk and one failed; the queue updates', async () => {
    const upi = await requestedPayout('Meena Iyer', '800', { amount: '300', upiId: 'meena.iyer@oksbi' });
    const bank = await requestedPayout('Farhan Qureshi', '1500', {
      amount: '1250.50',
      accountNumber: '50100234567891',
      ifsc: 'HDFC0001234',
      accountHolderName: 'Farhan Qureshi',
    });
    const later = await requestedPayout('Lakshmi Reddy', '400', { amount: '275', upiId: 'lakshmi@ybl' });
    const page = await browser.newPage();
    // No warning or error in the console along the way (React keys, MUI props, failed requests).
    const problems: string[] = [];
    page.on('console', (message) => {
      if (['error', 'warning'].includes(message.type())) problems.push(message.text().split('\n')[0]!);
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const toolbar = page.locator('[data-test="bulk-actions-toolbar"]');
    const row = (id: number) =>
      page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(id), exact: true }) });

    await step(page, 'payout-queue', async () => {
      await signInAsAdmin(page);
      await page.getByRole('menuitem', { name: 'Payouts' }).click();
      await row(later).waitFor();
      // Oldest first, amounts in rupees, bank accounts by their last four digits.
      const ids = await page.locator('tbody td.column-id').allTextContents();
      expect(ids.map(Number)).toEqual([upi, bank, later]);
      await row(bank).getByText('₹1,250.50').waitFor();
      await row(bank).getByText('XXXX7891 · HDFC0001234').waitFor();
      await row(upi).getByText('meena.iyer@oksbi').waitFor();
      await expect(page.getByText('50100234567891').count()).resolves.toBe(0);
      // Dates as India writes them in English: day, month, year (25/11/2026, 2:12:00 pm), not the
      // US order and its capital PM.
      const [{ requestedAt }] = await market.api.dataSource.query(
        'SELECT requested_at AS "requestedAt" FROM payouts WHERE id = $1',
        [upi],
      );
      const day = (requestedAt as Date).toLocaleDateString('en-IN');
      await expect(row(upi).locator('td.column-requestedAt').textContent()).resolves.toMatch(
        new RegExp(`^${day}, \\d{1,2}:\\d{2}:\\d{2}\\s(am|pm)$`),
      );
      expectAccessible(await seriousViolations(page));
    });

    await step(page, 'payout-bulk-process', async () => {
      await row(upi).getByRole('checkbox').check();
      await row(bank).getByRole('checkbox').check();
      await toolbar.getByRole('button', { name: 'Start processing' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Start processing' }).click();
      await page.getByText('2 payouts in processing.').waitFor();
      await row(bank)
        .getByRole('button', { name: /^Mark paid #/ })
        .waitFor();
    });

    await step(page, 'payout-bulk-paid', async () => {
      await row(upi).getByRole('checkbox').check();
      await row(bank).getByRole('checkbox').check();
      await row(later).getByRole('checkbox').check();
      await toolbar.getByRole('button', { name: 'Mark paid' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Mark 2 payouts paid').waitFor();
      // The requested one is named as left out: it is not in the payment run yet.
      await dialog.getByText('1 chosen payout is not in processing and stays as it is.').waitFor();
      const upiReference = dialog.getByLabel(new RegExp(`^Bank reference for #${upi}:`));
      // The dialog of the payment run names the whole account to pay into.
      const bankReference = dialog.getByLabel(
        `Bank reference for #${bank}: ₹1,250.50 to 50100234567891 · HDFC0001234 (Farhan Qureshi)`,
      );
      await upiReference.fill('UPI432918765012');
      await bankReference.fill('upi432918765012');
      await dialog.getByRole('button', { name: 'Mark paid' }).click();
      await dialog.getByText(PAYOUT.bankReference.repeated).first().waitFor();
      expectAccessible(await seriousViolations(page));
      await bankReference.fill('HDFCN52026112512345');
      await dialog.getByRole('button', { name: 'Mark paid' }).click();
      await page.getByText('2 payouts marked paid.').waitFor();
      // The queue shows what is still to pay.
      await row(upi).waitFor({ state: 'detached' });
      await row(bank).waitFor({ state: 'detached' });
      await row(later).waitFor();
    });
    expect(await payoutRows([upi, bank])).toEqual([
      { id: upi, state: 'paid', bankReference: 'UPI432918765012', failureReason: null },
      { id: bank, state: 'paid', bankReference: 'HDFCN52026112512345', failureReason: null },
    ]);

    await step(page, 'payout-failed', async () => {
      await row(later)
        .getByRole('button', { name: /^Mark failed #/ })
        .click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Mark failed' }).click();
      await dialog.getByText(PAYOUT.reason.required).waitFor();
      await dialog.getByLabel(/^Reason/).fill('The UPI ID does not exist.');
      await dialog.getByRole('button', { name: 'Mark failed' }).click();
      await page.getByText('Payout marked failed: the amount is back in the shopper’s balance.').waitFor();
      await row(later).waitFor({ state: 'detached' });
      await page.getByText('No payouts here.').waitFor();
    });
    expect(await payoutRows([later])).toEqual([
      { id: later, state: 'failed', bankReference: null, failureReason: 'The UPI ID does not exist.' },
    ]);

    await step(page, 'payout-history', async () => {
      // Every state is a filter away: the paid ones show their references.
      await page.getByRole('combobox', { name: 'Status' }).click();
      await page.getByRole('option', { name: 'Paid' }).click();
      await row(bank).getByText('Ref. HDFCN52026112512345').waitFor();
      await row(upi).waitFor();
      expectAccessible(await seriousViolations(page));
    });
    expect(problems).toEqual([]);
    await page.close();
  });
  it('on a phone, shows a card per payout that fits the screen and takes it a step on', async () => {
    const upi = await requestedPayout('Sunita Deshpande', '600', {
      amount: '450',
      upiId: 'sunita.deshpande.savings@okhdfcbank',
    });
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: new RegExp(`^#${upi} `) }) });

    await step(page, 'payout-queue-phone', async () => {
      await signInAsAdmin(page);
      await page.goto(`${site.url}/#/payouts`);
      await card.waitFor();
      // Everything a row of the table holds, within the screen's width.
      await card.getByRole('heading', { name: `#${upi} · ₹450.00` }).waitFor();
      await card.getByText('Sunita Deshpande').waitFor();
      await card.getByText('sunita.deshpande.savings@okhdfcbank').waitFor();
      await card.getByText('Requested').waitFor();
      await expect(page.locator('table').count()).resolves.toBe(0);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      const box = await card.getByRole('button', { name: /^Mark failed #/ }).boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      expectAccessible(await seriousViolations(page));

      await card.getByRole('button', { name: /^Start processing #/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Start processing' }).click();
      await page.getByText('Payout in processing.').waitFor();
      await card.getByRole('button', { name: /^Mark paid #/ }).waitFor();
    });
    expect(await payoutRows([upi])).toEqual([
      { id: upi, state: 'processing', bankReference: null, failureReason: null },
    ]);
    await page.close();
  });
});
