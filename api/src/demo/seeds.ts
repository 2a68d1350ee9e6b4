import type { DataSource } from 'typeorm';
import { firstAdminSeed } from '../identity/admin-seed.js';
import type { Environment } from '../infrastructure/config/environment.js';
import { demoAnalyticsSeed } from './analytics.js';
import { demoClaimsSeed } from './claims.js';
import { demoContentSeed } from './content.js';
import { demoCouponsSeed } from './coupons.js';
import { demoFeedsSeed } from './feeds.js';
import { demoPayoutsSeed } from './payouts.js';
import { demoSlotsSeed } from './slots.js';
import { demoStorefrontSeed } from './storefront.js';

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
  demoClaimsSeed,
  demoAnalyticsSeed,
];
