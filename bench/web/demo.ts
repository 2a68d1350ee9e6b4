/**
 * The demo marketplace of `npm start` (its stores, coupons, home content), seeded into a bench's
 * database and waited for until the workers have projected it into the site's read models.
 */

import { demoContentSeed, demoCouponsSeed, demoStorefrontSeed } from '@offers/api/demo';
import type { Environment } from '@offers/api/platform';
import type { DataSource } from 'typeorm';
import { eventually } from '../../test/support/test-environment.js';

/** Seeds content, coupons and stores (the admin and the slots come first), then waits for the read models. */
export async function seedDemoMarketplace(dataSource: DataSource, environment: Environment): Promise<void> {
  for (const seed of [demoContentSeed, demoCouponsSeed, demoStorefrontSeed]) {
    await seed.run(dataSource, environment);
  }
  await eventually(
    async () => {
      const [state] = await dataSource.query(
        `SELECT (SELECT count(*)::int FROM outbox WHERE processed_at IS NULL AND failed_at IS NULL) AS waiting,
                (SELECT count(*)::int FROM outbox WHERE failed_at IS NOT NULL) AS failed,
                (SELECT count(*)::int FROM coupon_listings WHERE expires_at > now()) AS listed,
                (SELECT count(*)::int FROM store_pages) AS stores,
                (SELECT coalesce(jsonb_array_length(document->'heroes'), 0) FROM home_content WHERE id = 1) AS heroes`,
      );
      if (state.failed > 0) throw new Error(`${state.failed} events of the demo data failed`);
      return state.waiting === 0 && state.listed > 0 && state.stores > 0 && state.heroes > 0;
    },
    'the demo marketplace to be projected (listings, store pages, home content)',
    60_000,
  );
}
