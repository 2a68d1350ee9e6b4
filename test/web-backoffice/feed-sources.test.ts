import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { feedImportJobId } from '@offers/api/feeds/feed-import-job';
import { QueueRegistry } from '@offers/api/infrastructure/jobs/queue-registry';
import { QueueName } from '@offers/api/infrastructure/jobs/queues';
import { FEED_POSTBACK_MESSAGES, FEED_POSTBACK_PRESETS } from '@offers/api/rules/feeds';
import { FeedRunJobs } from '../../workers/src/feeds/feed-run-jobs.js';
import { expectAccessible } from '../support/accessibility.js';
import { type BackofficeSite, signInAsAdmin, startBackofficeSite } from '../support/backoffice.js';
import { seriousViolations, step } from '../support/browser.js';
import { fillMappedCsvSource } from '../support/feeds.js';
import type { Marketplace } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

let backoffice: BackofficeSite;
let market: Marketplace;

beforeAll(async () => {
  backoffice = await startBackofficeSite('backoffice_feed_sources', { consumers: [FeedRunJobs] });
  market = backoffice.market;
}, 120_000);

afterAll(() => backoffice?.close());

const FEED = 'id;store_id;title;code\r\n1;7;"Flat ₹200 off; on ₹999";SAVE200\r\n';

describe('back-office: feed sources', () => {
  it('an admin adds a mapped-CSV source, uploads a file and sees the queued run', async () => {
    const page = await backoffice.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await signInAsAdmin(page, backoffice.site.url);

    await step(page, 'feed-source-create', async () => {
      await page.getByRole('menuitem', { name: 'Feed sources' }).click();
      await page.getByRole('link', { name: 'Create' }).click();
      await fillMappedCsvSource(
        page,
        'Partner coupons CSV',
        {
          'Row id column': 'id',
          'Advertiser id column': 'store_id',
          'Title column *': 'title',
          'Code column': 'code',
        },
        'Semicolon',
      );
      // No address: an uploaded feed, so neither a schedule nor a credential is offered.
      await expect(page.getByLabel('Schedule').count()).resolves.toBe(0);
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Not run yet').waitFor();
    });
    const [source] = await market.api.dataSource.query(
      'SELECT id, url, mapping, slot_id AS "slotId" FROM feed_sources WHERE name = \'Partner coupons CSV\'',
    );
    expect(source.url).toBeNull();
    expect(source.mapping).toEqual({
      separator: ';',
      columns: { rowId: 'id', advertiserId: 'store_id', title: 'title', code: 'code' },
    });

    await step(page, 'feed-source-upload', async () => {
      // An uploaded feed has no "Run now": its file is the feed.
      await expect(page.getByRole('button', { name: 'Run now' }).count()).resolves.toBe(0);
      await page.getByTestId('feed-file').setInputFiles({
        name: 'partner.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(FEED),
      });
      await page.getByText('The run is queued.').waitFor();
      await page.getByRole('cell', { name: 'Queued' }).waitFor();
      await page.getByRole('cell', { name: 'Upload' }).waitFor();
      expectAccessible(await seriousViolations(page));
    });
    const [run] = await market.api.dataSource.query(
      'SELECT r.id, r.status, u.bytes FROM feed_runs r JOIN feed_uploads u ON u.run_id = r.id WHERE r.source_id = $1',
      [source.id],
    );
    expect(run.status).toBe('queued');
    expect(run.bytes.toString()).toBe(FEED);
    await eventually(
      () =>
        market.workers.module.get(QueueRegistry).get(QueueName.FeedImports).getJob(feedImportJobId(run.id)),
      'the import job',
    );

    await step(page, 'feed-run-show', async () => {
      await page.getByRole('cell', { name: 'Queued' }).click();
      await page.getByText('No row was rejected.').waitFor();
      const link = page.getByRole('link', { name: 'Download rejected rows (CSV)' });
      await expect(link.getAttribute('href')).resolves.toBe(`/api/admin/feed-runs/${run.id}/rejections.csv`);
      expectAccessible(await seriousViolations(page));
    });
    await page.close();
  });

  it('an admin sees the address to give the network, edits how its postbacks are named and rotates its secret', async () => {
    const created = await market.api.http.inject({
      method: 'POST',
      url: '/api/admin/feed-sources',
      headers: market.admin,
      payload: { name: 'Admitad postbacks', format: 'admitad-json', url: null },
    });
    const { id, postbackSecret, postbackUrl } = created.json();
    expect(postbackUrl).toContain(`/api/postbacks/networks/${id}?token=`);
    const page = await backoffice.browser.newPage({ viewport: { width: 1366, height: 900 } });
    await signInAsAdmin(page, backoffice.site.url);
    await page.goto(`${backoffice.site.url}/#/feed-sources/${id}/show`);

    await step(page, 'feed-source-postback', async () => {
      await expect(page.getByTestId('postback-url').textContent()).resolves.toBe(postbackUrl);
      await page.getByRole('row', { name: 'Order amount field order_sum' }).waitFor();
      await page
        .getByRole('row', { name: 'Approved status words approved, approved_but_stalled, accepted' })
        .waitFor();
      expectAccessible(await seriousViolations(page));
    });

    await step(page, 'feed-source-postback-edit', async () => {
      await page.getByRole('link', { name: 'Edit' }).click();
      const clickField = page.getByLabel('Click id (sub-id) field *');
      await clickField.fill('token');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByText(FEED_POSTBACK_MESSAGES.fieldName).waitFor();
      await clickField.fill('sub_id');
      await page.getByLabel('Commission field').fill('');
      const pending = page.getByLabel('Pending status words');
      await pending.fill('on_hold');
      await pending.press('Enter');
      expectAccessible(await seriousViolations(page));
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('row', { name: 'Click id (sub-id) field sub_id' }).waitFor();
    });
    const [source] = await market.api.dataSource.query(
      'SELECT postback_mapping AS mapping FROM feed_sources WHERE id = $1',
      [id],
    );
    expect(source.mapping).toEqual({
      fields: { ...FEED_POSTBACK_PRESETS['admitad-json'].fields, clickId: 'sub_id', commission: null },
      statuses: {
        ...FEED_POSTBACK_PRESETS['admitad-json'].statuses,
        pending: [...FEED_POSTBACK_PRESETS['admitad-json'].statuses.pending, 'on_hold'],
      },
    });

    await step(page, 'feed-source-rotate-secret', async () => {
      await page.getByRole('button', { name: 'New postback secret' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await page.getByText('A new postback secret is set').waitFor();
      await eventually(
        async () =>
          !(await page.getByTestId('postback-url').textContent())?.includes(
            encodeURIComponent(postbackSecret),
          ),
        'the new address',
      );
    });
    const [{ secret }] = await market.api.dataSource.query(
      'SELECT postback_secret AS secret FROM feed_sources WHERE id = $1',
      [id],
    );
    expect(secret).not.toBe(postbackSecret);
    await expect(page.getByTestId('postback-url').textContent()).resolves.toContain(
      encodeURIComponent(secret),
    );
    await page.close();
  });
});
