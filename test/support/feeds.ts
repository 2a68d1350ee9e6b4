import type { Page } from 'playwright-core';
import type { DataSource } from 'typeorm';

/** Maps a source's advertiser to a store, as an admin's mapping would. */
export async function mapAdvertiser(
  dataSource: DataSource,
  sourceId: number,
  advertiserId: string,
  merchantId: number,
): Promise<void> {
  await dataSource.query(
    `INSERT INTO feed_advertisers (source_id, advertiser_id, merchant_id) VALUES ($1, $2, $3)
     ON CONFLICT (source_id, advertiser_id) DO UPDATE SET merchant_id = EXCLUDED.merchant_id`,
    [sourceId, advertiserId, merchantId],
  );
}

/**
 * Fills the back-office's form of a new mapped-CSV source without an address (an uploaded feed),
 * without saving it: its name, the separator when not a comma, and each column by its field's
 * label (`Row id column`, `Title column *`, ...).
 */
export async function fillMappedCsvSource(
  page: Page,
  name: string,
  columns: Record<string, string>,
  separator?: 'Semicolon' | 'Tab' | 'Pipe',
): Promise<void> {
  await page.getByLabel('Name *').fill(name);
  await page.getByLabel('Format').click();
  await page.getByRole('option', { name: 'CSV with mapped columns' }).click();
  if (separator) {
    await page.getByLabel('Separator').click();
    await page.getByRole('option', { name: separator }).click();
  }
  for (const [label, column] of Object.entries(columns)) await page.getByLabel(label).fill(column);
}
