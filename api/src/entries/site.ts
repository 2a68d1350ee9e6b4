/** What the public site's server reads: its settings, the read models it renders, the channels that tell it they changed, and the HTTP helpers, logging rules and operations server it shares with the API (no Nest modules, no commands). */
export { CASHBACK_CHANNEL } from '../cashback/events/cashback-events.js';
export { HOME_CONTENT_CHANNEL } from '../content/events/content-events.js';
export { HomePageQueries } from '../content/queries/home-content.js';
export { LISTINGS_CHANNEL } from '../coupons/events/coupon-events.js';
export type { ListingQuery } from '../coupons/queries/listings.js';
export { CouponListings } from '../coupons/queries/listings.js';
export { Environment, loadEnvironmentOrExit } from '../infrastructure/config/environment.js';
export { ReadyCache } from '../infrastructure/events/ready-cache.js';
export {
  liveness,
  OperationsServer,
  type ReadinessCheck,
} from '../infrastructure/health/operations-server.js';
export { entityTagOf } from '../infrastructure/http/cache-headers.js';
export { addressList, forwardedFor } from '../infrastructure/http/client-address.js';
export { serverAnsweringFirst } from '../infrastructure/http/server-answering-first.js';
export { isUnreadableAddress } from '../infrastructure/http/unreadable-text.js';
export {
  answerLogLevel,
  REDACTED_PATHS,
  REQUEST_SERIALIZERS,
  requestIdFor,
} from '../infrastructure/platform/logging.js';
export { STORE_PAGES_CHANNEL } from '../storefront/events/storefront-events.js';
export { listStores, storeAddresses, storePageText } from '../storefront/queries/store-list.js';
