import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { expectAccessible } from '../support/accessibility.js';
import { MERCHANT_PASSWORD, registerAndSignInMerchant } from '../support/accounts.js';
import {
  type BackofficeSite,
  signInAsAdmin,
  signInToBackoffice,
  startBackofficeSite,
} from '../support/backoffice.js';
import { seriousViolations, step } from '../support/browser.js';

/**
 * The back-office's privacy screens: the admins' grievance queue (soonest due first, days left or
 * overdue, the answer), the log of data requests naming who acted, and a merchant's "Your data"
 * in its profile with the JSON download.
 */
const DESKTOP = { width: 1366, height: 900 };

let office: BackofficeSite;
const references = {} as Record<'recent' | 'overdue', string>;

const inject = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  office.market.api.http.inject({ method, url, headers, payload: payload as string });

async function file(subject: string, address: string): Promise<string> {
  const filed = await inject(
    'POST',
    '/api/grievances',
    { 'x-forwarded-for': address },
    {
      name: 'Ravi Kumar',
      email: 'ravi.kumar@example.in',
      category: 'erasure',
      subject,
      message: 'Please delete my old address.',
      language: 'hi',
    },
  );
  if (filed.statusCode !== 201) throw new Error(`grievance not filed: ${filed.body}`);
  return filed.json().reference as string;
}

beforeAll(async () => {
  office = await startBackofficeSite('backoffice_privacy');
  references.recent = await file('Delete my address', '10.95.0.1');
  references.overdue = await file('My data was shared', '10.95.0.2');
  await office.market.api.dataSource.query(
    `UPDATE grievances SET filed_at = now() - interval '95 days', due_at = now() - interval '5 days'
     WHERE reference = $1`,
    [references.overdue],
  );
}, 180_000);

afterAll(async () => {
  await office?.close();
});

describe('back-office: grievances and the data-request log', () => {
  it('an admin sees the queue by deadline, answers a grievance, and finds both steps in the log', async () => {
    const page = await office.browser.newPage({ viewport: DESKTOP });
    const row = (reference: string) =>
      page.getByRole('row').filter({ has: page.getByRole('cell', { name: reference, exact: true }) });

    await step(page, 'grievance-queue', async () => {
      await signInAsAdmin(page, office.site.url);
      await page.getByRole('menuitem', { name: 'Grievances' }).click();
      await row(references.recent).waitFor();
      const shown = await page.locator('tbody td.column-reference').allTextContents();
      expect(shown).toEqual([references.overdue, references.recent]);
      await row(references.overdue).getByText('5 days overdue').waitFor();
      await row(references.recent).getByText('90 days left').waitFor();
      await row(references.recent).getByText('Deleting their data').waitFor();
      expectAccessible(await seriousViolations(page));
    });

    await step(page, 'grievance-answer', async () => {
      await row(references.recent).getByText('Delete my address').click();
      await page.getByText('Please delete my old address.').waitFor();
      await page.getByRole('button', { name: 'Send the answer' }).click();
      await page.getByText('Write the answer to send.').waitFor();
      expectAccessible(await seriousViolations(page));
      await page
        .getByLabel(/^Answer \(the person reads it\)/)
        .fill('We deleted your old address on 2 December.');
      await page.getByRole('button', { name: 'Send the answer' }).click();
      await page.getByText('Answered: the answer is on its way to the person.').waitFor();
      await page.getByRole('button', { name: 'Send the answer' }).waitFor({ state: 'detached' });
      await page.getByText('We deleted your old address on 2 December.').waitFor();
    });
    const [answered] = await office.market.api.dataSource.query(
      'SELECT state, answer FROM grievances WHERE reference = $1',
      [references.recent],
    );
    expect(answered).toEqual({ state: 'answered', answer: 'We deleted your old address on 2 December.' });

    await step(page, 'data-request-log', async () => {
      await page.getByRole('menuitem', { name: 'Data requests' }).click();
      const logged = page.getByRole('row').filter({ hasText: references.recent });
      await logged.filter({ hasText: 'answered' }).getByText('Admin admin').waitFor();
      await logged.filter({ hasText: 'filed' }).getByText('The person').waitFor();
      await expect(logged.count()).resolves.toBe(2);
      expectAccessible(await seriousViolations(page));
    });
    await page.close();
  }, 120_000);

  it('a merchant reads its data in its profile and downloads it as JSON', async () => {
    const { registration } = await registerAndSignInMerchant(office.market.api.baseUrl, {
      address: 'Shop 7, Silk Bazaar, Kanchipuram',
    });
    const context = await office.browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    const page = await context.newPage();
    await step(page, 'merchant-your-data', async () => {
      await signInToBackoffice(
        page,
        office.site.url,
        'Merchant',
        registration.userName as string,
        MERCHANT_PASSWORD,
      );
      await page.getByRole('menuitem', { name: 'Profile' }).click();
      await page.getByRole('heading', { name: 'Your data', level: 2 }).waitFor();
      await page.getByRole('heading', { name: /^Account \(1 record\)$/ }).waitFor();
      await page.getByText('Shop 7, Silk Bazaar, Kanchipuram').first().waitFor();
      await page.getByText('Shared with our mail provider: your email address.').first().waitFor();
      expectAccessible(await seriousViolations(page));
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download my data (JSON)' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
      const exported = JSON.parse(await readFile((await download.path())!, 'utf8'));
      expect(exported.person.kind).toBe('merchant');
      expect(exported.sections[0].records[0]).toEqual(
        expect.objectContaining({ email: registration.email, address: 'Shop 7, Silk Bazaar, Kanchipuram' }),
      );
    });
    await context.close();
  }, 120_000);
});
