/**
 * The demo marketplace: each feature's demo data and the seed list; and the bulk seeds the
 * benchmarks write their data at scale with, each in its table's owner.
 */
export type { SlotInBulk, StoreInBulk } from '../coupons/queries/bulk-seed.js';
export {
  emptyCouponsInBulk,
  listingRowsOfStore,
  rewindExpirySweep,
  seedCouponsInBulk,
  seedListingsInBulk,
  seedPendingCouponsInBulk,
  seedSlotsInBulk,
} from '../coupons/queries/bulk-seed.js';
export { demoAnalyticsSeed } from '../demo/analytics.js';
export { demoClaimsSeed } from '../demo/claims.js';
export { DEMO_HOME, demoContentSeed } from '../demo/content.js';
export { DEMO_COUPON_COUNT, DEMO_MERCHANT_PASSWORD, DEMO_STORES, demoCouponsSeed } from '../demo/coupons.js';
export { DEMO_FEED_DAY, DEMO_FEEDS, DEMO_WAITING_ADVERTISER, movedToToday } from '../demo/feeds.js';
export { DEMO_SHOPPER, demoPayoutsSeed } from '../demo/payouts.js';
export { seeds } from '../demo/seeds.js';
export { demoSlotsSeed } from '../demo/slots.js';
export { DEMO_STORE_MERCHANT, demoStorefrontSeed } from '../demo/storefront.js';
export { mapFeedAdvertisersInBulk } from '../feeds/queries/bulk-seed.js';
export { DEVELOPMENT_ADMIN_PASSWORD, firstAdminSeed } from '../identity/admin-seed.js';
export type { MerchantInBulk, MerchantsInBulk } from '../identity/queries/bulk-seed.js';
export { seedMerchantsInBulk } from '../identity/queries/bulk-seed.js';
export { seedStoreNamePagesInBulk, seedStorePageWithCoupons } from '../storefront/queries/bulk-seed.js';
