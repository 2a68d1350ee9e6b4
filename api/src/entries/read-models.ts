/** The owners' functions other processes call: the rows projections and mails copy, the stores they write, the links they sign. */
export { emptyDailyFigures } from '../analytics/daily-figures-store.js';
export {
  countIntoDailyFigures,
  DAILY_FIGURE_EVENTS,
  DAILY_FIGURES_CONSUMER,
} from '../analytics/queries/daily-figures.js';
export { merchantAnalytics, period } from '../analytics/queries/dashboards.js';
export { rateAtClick, storeCashback } from '../cashback/queries/rates.js';
export { claimMailFacts } from '../claims/queries/answers.js';
export { newClickId } from '../clicks/click-ids.js';
export { sweepAnonymousClicks } from '../clicks/queries/click-retention.js';
export { clickOutTarget, ensureClickPartitions } from '../clicks/queries/clicks.js';
export { replaceHomeContent } from '../content/home-content-store.js';
export { buildHomeContent } from '../content/queries/home-content.js';
export { HomeContentCache } from '../content/queries/home-content-cache.js';
export { homeContentDocument } from '../content/queries/home-content-document.js';
export {
  countCouponClick,
  emptyCouponListings,
  recountCouponVotes,
  showCouponListings,
} from '../coupons/coupon-listing-store.js';
export { expirySweepCounts, liveCouponsInSlot } from '../coupons/queries/bulk-seed.js';
export { usableCoupon } from '../coupons/queries/coupon-records.js';
export { HOLD_EXPIRY_SWEEP } from '../coupons/queries/coupon-status.js';
export { couponSuggestionsPlan } from '../coupons/queries/coupon-suggestions.js';
export { DUE_COUPONS } from '../coupons/queries/expiry-sweep.js';
export { liveFeaturedCoupons } from '../coupons/queries/featured-coupons.js';
export {
  listedCouponCount,
  listedCoupons,
  liveCouponIdsOfStore,
  storesOfCoupons,
} from '../coupons/queries/listed-coupons.js';
export { ListingCache } from '../coupons/queries/listing-cache.js';
export { LISTING_ORDER } from '../coupons/queries/listings.js';
export type { NoticeStep, WaitingNotice, WaitingNotices } from '../earnings/queries/notices.js';
export {
  earningUpdatesMailKey,
  markNoticesMailed,
  noteEarningStep,
  purgeMailedNotices,
  waitingNotices,
} from '../earnings/queries/notices.js';
export { countCampaignMail, markRecipientsQueued } from '../engagement/campaign-mail-counts.js';
export { newsletterConfirmToken, newsletterUnsubscribeToken } from '../engagement/newsletter-tokens.js';
export { contactMessageById } from '../engagement/queries/admin-records.js';
export {
  campaignContent,
  takeUnqueuedRecipients,
  unqueuedRecipientBatches,
} from '../engagement/queries/campaign-batches.js';
export { pendingSubscriber } from '../engagement/queries/mail-facts.js';
export type { FeedImportJob } from '../feeds/feed-import-job.js';
export { feedImportJobId } from '../feeds/feed-import-job.js';
export type {
  FeedCredential,
  FeedRejection,
  FeedRow,
  FetchFeedOptions,
  ReadFeedOptions,
} from '../feeds/formats/index.js';
export {
  csvMappingProblems,
  FeedError,
  FeedFetchFailed,
  FeedTooLarge,
  FeedUnreadable,
  feedLimits,
  fetchFeed,
  readFeed,
} from '../feeds/formats/index.js';
export type { AdvertiserDirectory } from '../feeds/import/advertiser-directory.js';
export { ADVERTISER_DIRECTORY, FEED_ADVERTISERS } from '../feeds/import/advertiser-directory.js';
export { FeedImport, staleFeedSources } from '../feeds/import/feed-import.js';
export { advertiserStore, categoryIdsFor, noteUnmappedAdvertiser } from '../feeds/queries/advertisers.js';
export { feedCouponTarget } from '../feeds/queries/feed-coupons.js';
export {
  feedRunProgress,
  feedRunStatus,
  moveFeedRun,
  recordFeedRejections,
  staleQueuedRuns,
} from '../feeds/queries/runs.js';
export { feedCredential } from '../feeds/queries/sources.js';
export { storeAlertUnsubscribeToken } from '../follows/alert-links.js';
export type { AlertPair, WaitingAlerts, WaitingAlertsBatch } from '../follows/queries/alerts.js';
export {
  markAlertsMailed,
  purgeMailedAlerts,
  queueStoreAlerts,
  storeAlertMailKey,
  waitingAlerts,
} from '../follows/queries/alerts.js';
export { emailConfirmationToken } from '../identity/email-confirmation.js';
export { purgeExpiredSignInData } from '../identity/housekeeping.js';
export { MerchantScope } from '../identity/merchant-scope.js';
export { passwordResetToken } from '../identity/password-reset.js';
export type { MailRecipient } from '../identity/queries/mail-recipients.js';
export {
  adminRecipients,
  merchantRecipients,
  shopperRecipients,
} from '../identity/queries/mail-recipients.js';
export { passwordMailRecipient } from '../identity/queries/passwords.js';
export { userProfile } from '../identity/queries/profiles.js';
export { insertStoreWithoutAccount } from '../identity/queries/stores-without-account.js';
export { referralInvitation } from '../identity/referrals.js';
export { areaRole, BAD_XSRF_TOKEN, NOT_SIGNED_IN, Public } from '../identity/sessions/access.js';
export type { Role } from '../identity/sessions/session.service.js';
export { keepDevMail, purgeDevMailbox } from '../mail/dev-mailbox.js';
export type { MailToSend, OutgoingMail, RenderedMail } from '../mail/outgoing-mails.js';
export {
  emptySentMails,
  markMailSent,
  OUTGOING_MAIL_CHANNEL,
  parametersWithoutSecrets,
  recordMailFailure,
  recordOutgoingMails,
  takeNextDueMail,
} from '../mail/outgoing-mails.js';
export {
  FORBIDDEN_ADDRESS,
  fetchImage,
  isPrivateAddress,
  UNREACHABLE_IMAGE,
} from '../media/image-sources.js';
export { configureImageLimit, IMAGE_TOO_MANY_PIXELS, IMAGE_TOO_WIDE } from '../media/images.js';
export { storeImage } from '../media/media.js';
export { configureMediaStore } from '../media/object-store.js';
export { sweepMediaObjects } from '../media/pending-objects.js';
export { resizeCount } from '../media/variants.js';
export { balanceOf, destinationOf, payoutById } from '../payouts/queries/payouts.js';
export { deletionLinkToken } from '../privacy/deletion-links.js';
export { exportPersonData, PERSON_EXPORTERS } from '../privacy/exporters.js';
export { PERSON_FORGETTERS } from '../privacy/forgetters.js';
export type { PersonToForget } from '../privacy/person.js';
export { accountAddressesWithout } from '../privacy/queries/consents.js';
export { deletionRequestById } from '../privacy/queries/deletion-requests.js';
export { grievanceMailFacts } from '../privacy/queries/grievances.js';
export { storeIdentities } from '../storefront/queries/store-identity.js';
export { storePageCount, storePageNames } from '../storefront/queries/store-list.js';
export { buildStorePage } from '../storefront/queries/store-page.js';
export { emptyStorePages, replaceStorePage } from '../storefront/store-page-store.js';
