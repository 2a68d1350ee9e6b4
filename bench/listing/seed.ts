/**
 * Data of the listing benchmark, written set-based (generate_series) by the tables' owners' bulk
 * seeds: merchants, the demo slots, live coupons with their categories, and the `coupon_listings`
 * rows the listing projection would have written for them.
 */

import {
  listingRowsOfStore,
  type MerchantInBulk,
  seedCouponsInBulk,
  seedListingsInBulk,
  seedMerchantsInBulk,
  seedSlotsInBulk,
  seedStorePageWithCoupons,
} from '@offers/api/demo';
import type pg from 'pg';
import type { EntityManager } from 'typeorm';

export const MERCHANTS = 100;

/** The owners' functions take what runs a statement and answers its rows; a pg client answers more. */
export function statements(client: pg.Client): Pick<EntityManager, 'query'> {
  return {
    query: async (query: string, parameters?: unknown[]) => (await client.query(query, parameters)).rows,
  } as Pick<EntityManager, 'query'>;
}

/** The merchants this process seeded: the coupons are theirs. */
let seeded: MerchantInBulk[] | undefined;

/** 100 merchants and the three slots of the demo data (one free, two paid). */
export async function seedMerchantsAndSlots(client: pg.Client): Promise<void> {
  await seedMerchants(client);
  await seedSlotsInBulk(statements(client), [
    { name: 'Free listing', kind: 'free', capacity: 500 },
    { name: 'Featured', kind: 'paid', pricePaise: 49900, capacity: 20 },
    { name: 'Home page hero', kind: 'paid', pricePaise: 199900, capacity: 4 },
  ]);
}

/** 100 confirmed merchants, `Brand <n>` at `/store/brand-<n>`. */
export async function seedMerchants(client: pg.Client): Promise<MerchantInBulk[]> {
  seeded = await seedMerchantsInBulk(statements(client), {
    first: 1,
    count: MERCHANTS,
    merchantName: 'Merchant {n}',
    brandName: 'Brand {n}',
    address: '{n} Market Street',
    email: 'merchant{n}@bench.localhost',
    mobile: '9{n9}',
    siteUrl: 'https://merchant{n}.bench.localhost',
    userName: 'merchant_{n}',
    referralCode: 'BENCH{n5}',
    slug: 'brand-{n}',
  });
  return seeded;
}

function seededMerchants(): MerchantInBulk[] {
  if (!seeded) throw new Error('the merchants are seeded first');
  return seeded;
}

/**
 * `count` live coupons of the seeded merchants, of which `due` (spread evenly over the ids) have
 * an expiry in the past day and the others an expiry 1 to 91 days ahead. Approved into their
 * requested slot in the last 30 days: one in ten in a paid slot. Merchants are taken in turn.
 */
export async function seedCoupons(client: pg.Client, count: number, due = 0): Promise<void> {
  const merchantIds = seededMerchants().map((merchant) => merchant.id);
  await seedCouponsInBulk(statements(client), { count, due, merchantIds });
}

/**
 * Categories of every coupon (a random subset of the eight, never empty), then one listing row
 * per live coupon with the projection's columns: popularity and clicks random, the search vector
 * and text from the same expressions as the projection's.
 */
export async function seedListings(client: pg.Client): Promise<void> {
  await seedListingsInBulk(
    statements(client),
    seededMerchants().map(({ id, merchantName, slug, siteUrl }) => ({ id, merchantName, slug, siteUrl })),
  );
}

/** Statistics and visibility as a table that has been in use would have them. */
export async function vacuumAnalyze(client: pg.Client, tables: string[]): Promise<void> {
  await client.query(`VACUUM (ANALYZE) ${tables.join(', ')}`);
}

/**
 * The store page of `brand-1` in the `store_pages` read model, shaped as the projection keeps it
 * (the page as the JSON text it is sent as) with the store's first 24 listed coupons.
 */
export async function seedStorePage(client: pg.Client): Promise<string> {
  const store = seededMerchants().find((merchant) => merchant.slug === 'brand-1');
  if (!store) throw new Error('brand-1 is not seeded');
  await seedStorePageWithCoupons(statements(client), {
    merchantId: store.id,
    slug: 'brand-1',
    storeName: store.brandName,
    siteUrl: store.siteUrl,
    coupons: await listingRowsOfStore(statements(client), store.id, 24),
  });
  return 'brand-1';
}
