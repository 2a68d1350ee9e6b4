/**
 * The demo marketplace of `npm start` (its stores, coupons, home content), seeded into a bench's
 * database and waited for until the workers have projected it into the site's read models.
 */

import { demoContentSeed, demoCouponsSeed, demoStorefrontSeed } from '@offers/api/demo';
import { type Environment, outboxBacklog } from '@offers/api/platform';
import { homeContentDocument, listedCouponCount, storePageCount } from '@offers/api/read-models';
import type { DataSource } from 'typeorm';
import { eventually } from '../../test/support/test-environment.js';

/** Seeds content, coupons and stores (the admin and the slots come first), then waits for the read models. */
export async function seedDemoMarketplace(dataSource: DataSource, environment: Environment): Promise<void> {
  for (const seed of [demoContentSeed, demoCouponsSeed, demoStorefrontSeed]) {
    await seed.run(dataSource, environment);
  }
  await eventually(
    async () => {
      const [backlog, listed, stores, home] = await Promise.all([
        outboxBacklog(dataSource),
        listedCouponCount(dataSource),
        storePageCount(dataSource),
        homeContentDocument(dataSource),
      ]);
      const state = { ...backlog, listed, stores, heroes: home?.heroes.length ?? 0 };
      if (state.failed > 0) throw new Error(`${state.failed} events of the demo data failed`);
      return state.waiting === 0 && state.listed > 0 && state.stores > 0 && state.heroes > 0;
    },
    'the demo marketplace to be projected (listings, store pages, home content)',
    60_000,
  );
}
