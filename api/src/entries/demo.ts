/** The demo marketplace: each feature's demo data and the seed list. */
export { demoAnalyticsSeed } from '../demo/analytics.js';
export { demoClaimsSeed } from '../demo/claims.js';
export { DEMO_HOME, demoContentSeed } from '../demo/content.js';
export { DEMO_COUPON_COUNT, DEMO_MERCHANT_PASSWORD, DEMO_STORES, demoCouponsSeed } from '../demo/coupons.js';
export { DEMO_FEED_DAY, DEMO_FEEDS, DEMO_WAITING_ADVERTISER, movedToToday } from '../demo/feeds.js';
export { DEMO_SHOPPER, demoPayoutsSeed } from '../demo/payouts.js';
export { seeds } from '../demo/seeds.js';
export { demoSlotsSeed } from '../demo/slots.js';
export { DEMO_STORE_MERCHANT, demoStorefrontSeed } from '../demo/storefront.js';
export { DEVELOPMENT_ADMIN_PASSWORD, firstAdminSeed } from '../identity/admin-seed.js';
