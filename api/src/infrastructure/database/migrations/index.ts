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
import { StoreCards1764450000000 } from './1764450000000-store-cards.js';
import { CouponVotes1764460000000 } from './1764460000000-coupon-votes.js';
import { ForgivingSearch1764470000000 } from './1764470000000-forgiving-search.js';
import { OutboxFailures1764600000000 } from './1764600000000-outbox-failures.js';
import { IdempotencyKeys1764610000000 } from './1764610000000-idempotency-keys.js';
import { SlotSeats1764620000000 } from './1764620000000-slot-seats.js';
import { StoreFollows1764630000000 } from './1764630000000-store-follows.js';
import { HomeContentLanguages1764700000000 } from './1764700000000-home-content-languages.js';
import { CouponCardTerms1764720000000 } from './1764720000000-coupon-card-terms.js';
import { Clicks1764800000000 } from './1764800000000-clicks.js';
import { Payouts1764810000000 } from './1764810000000-payouts.js';
import { DailyFigures1764820000000 } from './1764820000000-daily-figures.js';
import { ExpiryByDate1764830000000 } from './1764830000000-expiry-by-date.js';
import { OutboxSignal1764840000000 } from './1764840000000-outbox-signal.js';
import { FeedSources1764900000000 } from './1764900000000-feed-sources.js';
import { DealsAndCouponTexts1764910000000 } from './1764910000000-deals-and-coupon-texts.js';
import { FeedCoupons1764920000000 } from './1764920000000-feed-coupons.js';
import { FeedAdvertisers1764930000000 } from './1764930000000-feed-advertisers.js';
import { NetworkPostbacks1764940000000 } from './1764940000000-network-postbacks.js';
import { CashbackRates1764960000000 } from './1764960000000-cashback-rates.js';
import { CouponCodesByStore1764970000000 } from './1764970000000-coupon-codes-by-store.js';
import { MissingCashbackClaims1764980000000 } from './1764980000000-missing-cashback-claims.js';
import { EarningTimeline1765000000000 } from './1765000000000-earning-timeline.js';
import { DataRequests1765050000000 } from './1765050000000-data-requests.js';
import { Consents1765100000000 } from './1765100000000-consents.js';
import { Retention1765200000000 } from './1765200000000-retention.js';
import { Grievances1765300000000 } from './1765300000000-grievances.js';
import { DeletionRequests1765400000000 } from './1765400000000-deletion-requests.js';
import { KeptRecords1765500000000 } from './1765500000000-kept-records.js';
import { MediaObjectStorage1765700000000 } from './1765700000000-media-object-storage.js';

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
  StoreCards1764450000000,
  CouponVotes1764460000000,
  ForgivingSearch1764470000000,
  OutboxFailures1764600000000,
  IdempotencyKeys1764610000000,
  SlotSeats1764620000000,
  StoreFollows1764630000000,
  HomeContentLanguages1764700000000,
  CouponCardTerms1764720000000,
  Clicks1764800000000,
  Payouts1764810000000,
  DailyFigures1764820000000,
  ExpiryByDate1764830000000,
  OutboxSignal1764840000000,
  FeedSources1764900000000,
  DealsAndCouponTexts1764910000000,
  FeedCoupons1764920000000,
  FeedAdvertisers1764930000000,
  NetworkPostbacks1764940000000,
  CashbackRates1764960000000,
  CouponCodesByStore1764970000000,
  MissingCashbackClaims1764980000000,
  EarningTimeline1765000000000,
  DataRequests1765050000000,
  Consents1765100000000,
  Retention1765200000000,
  Grievances1765300000000,
  DeletionRequests1765400000000,
  KeptRecords1765500000000,
  MediaObjectStorage1765700000000,
];
