import type { EntityManager } from 'typeorm';
import type { StoreDocument } from './queries/store-page.js';

/** Writes the merchant's ready store page, or removes it when the store has no public page. */
export async function replaceStorePage(
  manager: EntityManager,
  merchantId: number,
  page: StoreDocument | undefined,
): Promise<void> {
  if (!page) {
    await manager.query('DELETE FROM store_pages WHERE merchant_id = $1', [merchantId]);
    return;
  }
  await manager.query(
    `INSERT INTO store_pages (merchant_id, slug, document, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (merchant_id) DO UPDATE SET slug = EXCLUDED.slug, document = EXCLUDED.document, updated_at = now()`,
    [merchantId, page.slug, JSON.stringify(page)],
  );
}

/** Empties the ready store pages, for a replay of the log. */
export async function emptyStorePages(manager: EntityManager): Promise<void> {
  await manager.query('TRUNCATE store_pages');
}
