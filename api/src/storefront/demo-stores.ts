import type { EntityManager } from 'typeorm';

/** A demo store's saved page: what a merchant's first save of its store would hold. */
export interface DemoStore {
  storeName: string;
  storeAddress: string;
  tagline: string;
  aboutDescription: string;
  logoId: string;
}

/**
 * Saves a demo merchant's store. The seed records StoreSaved itself, with its other events, so the
 * workers build the page as after a merchant's save.
 */
export async function insertDemoStore(
  manager: EntityManager,
  merchantId: number,
  store: DemoStore,
): Promise<void> {
  await manager.query(
    `INSERT INTO merchant_stores (merchant_id, store_name, store_address, tagline, about_description, merchant_logo_id)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [merchantId, store.storeName, store.storeAddress, store.tagline, store.aboutDescription, store.logoId],
  );
}
