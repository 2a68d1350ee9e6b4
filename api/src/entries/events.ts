/** Domain events: the event classes and types features publish, DomainEvent and PublishedEvent. */
export { CashbackChanged } from '../cashback/events/cashback-events.js';
export { ClaimApproved, ClaimRejected } from '../claims/events/claim-events.js';
export { CONTENT_EVENTS, HOME_CONTENT_CHANNEL } from '../content/events/content-events.js';
export {
  CouponApproved,
  CouponEnded,
  CouponExpired,
  CouponRejected,
  CouponRevealed,
  CouponVoted,
  CouponWithdrawn,
  LISTING_EVENTS,
  LISTINGS_CHANNEL,
} from '../coupons/events/coupon-events.js';
export {
  CashbackConfirmed,
  PurchaseRecorded,
  ReferralRewardEarned,
} from '../earnings/events/earnings-events.js';
export {
  CampaignSendStarted,
  ContactMessageReceived,
  NewsletterConfirmationRequested,
} from '../engagement/events/engagement-events.js';
export { FeedRunAccepted, FeedRunRequested } from '../feeds/events/feed-events.js';
export {
  MERCHANT_VISIBILITY_EVENTS,
  MerchantRegistered,
  PasswordChanged,
  PasswordResetRequested,
  UserRegistered,
} from '../identity/events/account-events.js';
export type { PublishedEvent } from '../infrastructure/events/domain-event.js';
export { DomainEvent } from '../infrastructure/events/domain-event.js';
export { PayoutFailed, PayoutPaid } from '../payouts/events/payout-events.js';
export {
  AccountDeletionCancelled,
  AccountDeletionConfirmed,
  AccountDeletionRequested,
  AccountErased,
  KeptRecordsRemoved,
} from '../privacy/events/deletion-events.js';
export { GrievanceAnswered, GrievanceFiled } from '../privacy/events/privacy-events.js';
export {
  ProductApproved,
  ProductRejected,
  STORE_PAGE_EVENTS,
  STORE_PAGES_CHANNEL,
  StoreSaved,
} from '../storefront/events/storefront-events.js';
