import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { DataSource } from 'typeorm';
import { categoryNamed } from '../coupons/queries/category-names.js';
import { createAdvertiserStore, mapAdvertiser, mapCategory } from '../feeds/commands/advertisers.js';
import { requestFeedRun } from '../feeds/commands/feed-runs.js';
import { createFeedSource } from '../feeds/commands/feed-sources.js';
import { isRejection, readFeed } from '../feeds/formats/index.js';
import {
  feedAdvertiserId,
  feedCategoriesNamed,
  noteUnmappedAdvertiser,
} from '../feeds/queries/advertisers.js';
import { defaultFeedSlot, feedSourceNamed } from '../feeds/queries/sources.js';
import { adminIdByUserName, merchantIdByUserName } from '../identity/queries/profiles.js';
import { runInTransaction, type Transaction } from '../infrastructure/events/unit-of-work.js';
import { type CATEGORIES, marketClock } from '../rules/coupons.js';
import type { FeedFormat } from '../rules/feeds.js';
import { setDemoCashback } from './cashback.js';
import { demoLogo } from './content.js';
import { DEMO_STORES } from './coupons.js';
import type { Seed } from './seeds.js';

/**
 * The demo marketplace's catalogue, as a network's would arrive: two feeds kept in `demo/` (an
 * Admitad coupons answer and a LinkMyDeals CSV, about 300 coupons and deals of 32 Indian stores,
 * with Hindi and Telugu rows, a few rows the import refuses and one advertiser nobody mapped),
 * uploaded to two sources and imported by the workers through the same runs and commands as an
 * admin's upload.
 */
export const DEMO_FEEDS: ReadonlyArray<{ source: string; format: FeedFormat; file: string }> = [
  { source: 'Admitad (demo)', format: 'admitad-json', file: 'admitad-demo.json' },
  { source: 'LinkMyDeals (demo)', format: 'linkmydeals-csv', file: 'linkmydeals-demo.csv' },
];

/** The advertiser left without a store, so the back-office shows one waiting. */
export const DEMO_WAITING_ADVERTISER = 'Chashma Corner';

/**
 * The networks' category names in the demo feeds that stand for one of ours. The others keep what
 * a run gives them: ours of the same name (Skin Care, Hair Care, ...), else none (Travel,
 * Electronics, ...: the shop's categories are its eight beauty ones).
 */
const DEMO_CATEGORY_MAPPING: Record<string, (typeof CATEGORIES)[number]> = {
  Fragrances: 'Fragrance',
  Perfumes: 'Fragrance',
  Grooming: "Men's Grooming",
  'Personal Care Appliances': 'Tools & Accessories',
  Ayurveda: 'Natural & Organic',
  Organic: 'Natural & Organic',
};

/**
 * The day the demo feeds were exported. Every date in them moves by the days from it to the day
 * the seed runs (in India), so an offer that ended three days before the export has ended three
 * days ago, and one ending two days after it ends the day after tomorrow.
 */
export const DEMO_FEED_DAY = '2026-12-01';

/** A demo feed's text with its dates (`YYYY-MM-DD`, with or without a time) moved to `today`. */
export function movedToToday(text: string, today = marketClock(Date.now()).day): string {
  const shift = Date.parse(today) - Date.parse(DEMO_FEED_DAY);
  return text.replace(/\b\d{4}-\d{2}-\d{2}\b/g, (day) =>
    new Date(Date.parse(day) + shift).toISOString().slice(0, 10),
  );
}

/** A demo feed as uploaded: the file kept beside this module (the build copies it), dated today. */
export async function demoFeedFile(file: string): Promise<Buffer> {
  const text = await readFile(new URL(`./feeds/${file}`, import.meta.url), 'utf8');
  return Buffer.from(movedToToday(text));
}

/** The advertisers and category names of a feed's rows, as a run reads them. */
async function advertisersAndCategories(bytes: Buffer, format: FeedFormat) {
  const advertisers = new Map<string, { id: string; name: string | null; siteUrl: string | null }>();
  const categories = new Set<string>();
  for await (const entry of readFeed(Readable.from([bytes]), format)) {
    if (isRejection(entry)) continue;
    advertisers.set(entry.advertiser.id, entry.advertiser);
    for (const name of entry.categories) categories.add(name);
  }
  return { advertisers: [...advertisers.values()], categories: [...categories] };
}

/** A store's colour, from its name: the same store gets the same logo on every install. */
function hueOf(name: string): number {
  let hue = 7;
  for (const character of name) hue = (hue * 31 + (character.codePointAt(0) ?? 0)) % 360;
  return hue;
}

/**
 * Maps each advertiser of a source to its store: the demo merchant of the same site, or the store
 * this seed created for that site from the other feed, or a store without an account created for
 * it now with a generated logo. Answers how many stores it created.
 */
async function mapDemoAdvertisers(
  tx: Transaction,
  sourceId: number,
  advertisers: Array<{ id: string; name: string | null; siteUrl: string | null }>,
  storesBySite: Map<string, number>,
  adminId: number | undefined,
): Promise<number> {
  let created = 0;
  for (const advertiser of advertisers) {
    if (advertiser.name === DEMO_WAITING_ADVERTISER) continue;
    const name = advertiser.name ?? advertiser.id;
    const site = advertiser.siteUrl
      ? new URL(advertiser.siteUrl).origin
      : `https://${advertiser.id}.example.in`;
    await noteUnmappedAdvertiser(tx.manager, sourceId, advertiser, 0);
    const id = (await feedAdvertiserId(tx.manager, sourceId, advertiser.id))!;
    const merchant = DEMO_STORES.find((store) => store.site === site);
    const known =
      storesBySite.get(site) ?? (merchant && (await merchantIdByUserName(tx.manager, merchant.user)));
    if (known) {
      await mapAdvertiser(tx, id, known);
      storesBySite.set(site, known);
      continue;
    }
    const logo = await demoLogo(name, hueOf(name));
    const { merchantId } = await createAdvertiserStore(tx, id, { name, siteUrl: site, logo });
    storesBySite.set(site, merchantId);
    if (adminId !== undefined) await setDemoCashback(tx, merchantId, name, adminId);
    created += 1;
  }
  return created;
}

/** Notes every category name of the feed and maps those that stand for one of ours. */
async function mapDemoCategories(tx: Transaction, sourceId: number, names: string[]): Promise<void> {
  for (const category of await feedCategoriesNamed(tx.manager, sourceId, names)) {
    const ours = DEMO_CATEGORY_MAPPING[category.name];
    const categoryId = ours === undefined ? undefined : await categoryNamed(tx.manager, ours);
    if (categoryId !== undefined) await mapCategory(tx, category.id, categoryId);
  }
}

/**
 * The two demo feed sources (uploaded feeds, publishing into the free listing), their advertisers
 * mapped to stores (two of them the demo merchants of the same sites, two shared by both feeds, one
 * left waiting), their categories mapped, and one upload run each, requested as an admin's upload
 * is: the run, its file and `FeedRunRequested` in one transaction, whose consumer in the workers
 * adds the import job. The workers then import the coupons in the background. Skipped once the
 * sources exist, and in production.
 */
export const demoFeedsSeed: Seed = {
  name: 'feeds',
  async run(dataSource: DataSource, environment) {
    if (environment.NODE_ENV === 'production') return undefined;
    const files = await Promise.all(DEMO_FEEDS.map((feed) => demoFeedFile(feed.file)));
    return runInTransaction(dataSource, async (tx) => {
      // Two seeds at once (two starts) take turns; the second finds the sources made.
      await tx.manager.query("SELECT pg_advisory_xact_lock(hashtext('seed:feeds'))");
      if ((await feedSourceNamed(tx.manager, DEMO_FEEDS[0]!.source)) !== undefined) return undefined;
      if ((await defaultFeedSlot(tx.manager)) === undefined) return 'skipped: no free slot';
      const storesBySite = new Map<string, number>();
      let created = 0;
      const sourceIds: number[] = [];
      // The new stores' cashback is set as the first admin would set it.
      const adminId = await adminIdByUserName(tx.manager, environment.ADMIN_USERNAME);
      for (const [index, feed] of DEMO_FEEDS.entries()) {
        const { id: sourceId } = await createFeedSource(tx, {
          name: feed.source,
          format: feed.format,
          url: null,
          reviewPolicy: 'publish',
          mode: 'full',
        });
        const { advertisers, categories } = await advertisersAndCategories(files[index]!, feed.format);
        created += await mapDemoAdvertisers(tx, sourceId, advertisers, storesBySite, adminId);
        await mapDemoCategories(tx, sourceId, categories);
        sourceIds.push(sourceId);
      }
      // Admitad's run last: the newest coupons, first on the lists, are those with Hindi and
      // Telugu texts.
      for (const index of [...DEMO_FEEDS.keys()].reverse()) {
        await requestFeedRun(tx, sourceIds[index]!, files[index]!);
      }
      return (
        `${DEMO_FEEDS.length} feed sources mapped to ${storesBySite.size} stores (${created} new, without accounts); ` +
        'their uploads are queued and the workers import the coupons in the background (back-office: Feed sources)'
      );
    });
  },
};
