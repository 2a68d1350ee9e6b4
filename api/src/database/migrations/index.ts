import { EventLog1763856000000 } from './1763856000000-event-log.js';
import { Identity1763900000000 } from './1763900000000-identity.js';
import { Coupons1763950000000 } from './1763950000000-coupons.js';
import { MediaVariants1763990000000 } from './1763990000000-media-variants.js';
import { Content1764000000000 } from './1764000000000-content.js';
import { Storefront1764100000000 } from './1764100000000-storefront.js';
import { Engagement1764200000000 } from './1764200000000-engagement.js';
import { TotalOrders1764300000000 } from './1764300000000-total-orders.js';
import { StoreAddresses1764350000000 } from './1764350000000-store-addresses.js';
import { AccountSecurity1764400000000 } from './1764400000000-account-security.js';

/** Every migration, oldest first. */
export const migrations = [
  EventLog1763856000000,
  Identity1763900000000,
  Coupons1763950000000,
  MediaVariants1763990000000,
  Content1764000000000,
  Storefront1764100000000,
  Engagement1764200000000,
  TotalOrders1764300000000,
  StoreAddresses1764350000000,
  AccountSecurity1764400000000,
];
