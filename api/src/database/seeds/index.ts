import type { DataSource } from 'typeorm';
import { demoAnalyticsSeed } from '../../analytics/demo-analytics.js';
import type { Environment } from '../../config/environment.js';
import { demoContentSeed } from '../../content/demo-content.js';
import { demoCouponsSeed } from '../../coupons/demo-coupons.js';
import { demoSlotsSeed } from '../../coupons/demo-slots.js';
import { demoFeedsSeed } from '../../feeds/demo-feeds.js';
import { firstAdminSeed } from '../../identity/admin-seed.js';
import { demoPayoutsSeed } from '../../payouts/demo-payouts.js';
import { demoStorefrontSeed } from '../../storefront/demo-storefront.js';

/**
 * A piece of demo data. Seeds must be idempotent: `npm start` runs them on every start, and a
 * seed that finds its data already there leaves it alone.
 */
export interface Seed {
  readonly name: string;
  run(dataSource: DataSource, environment: Environment): Promise<string | undefined>;
}

/** The demo marketplace, in dependency order; each feature adds its seeds here. */
export const seeds: Seed[] = [
  firstAdminSeed,
  demoSlotsSeed,
  demoContentSeed,
  demoCouponsSeed,
  demoFeedsSeed,
  demoStorefrontSeed,
  demoPayoutsSeed,
  demoAnalyticsSeed,
];
