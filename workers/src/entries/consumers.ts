/** The event consumers: the projections and the one list of consumers. */
export { CdnPurges } from '../cdn/cdn-purges.js';
export { CouponListingProjection } from '../consumers/coupon-listing.projection.js';
export { DailyFiguresProjection } from '../consumers/daily-figures.projection.js';
export { HomeContentProjection } from '../consumers/home-content.projection.js';
export { StorePageProjection } from '../consumers/store-page.projection.js';
