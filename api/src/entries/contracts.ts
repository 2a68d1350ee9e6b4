/** What the API answers and accepts: answer types, request shapes and the types they use. */
export type { HomePage, PictureTexts, PublicBanner } from '../content/queries/answers.js';
export type { Category, CouponCard, CouponPage } from '../coupons/queries/answers.js';
export type {
  EarningsHistory,
  EarningTimeline,
  EarningTimelineStep,
  PostbackSettings,
} from '../earnings/queries/answers.js';
export type { FeedRunAnswer, FeedSourceRecordAnswer } from '../feeds/queries/answers.js';
export type {
  Me,
  MerchantProfile,
  ReferralInvitation,
  SessionSummary,
  UserProfile,
} from '../identity/queries/answers.js';
export type {
  RequestedPayout,
  ShopperBalance,
  ShopperPayout,
  ShopperPayoutsPage,
} from '../payouts/queries/answers.js';
export type {
  DataFact,
  DataRequestLogEntry,
  DataSharedWith,
  GrievanceRecord,
  PersonDataExport,
  PersonDataExportSection,
  PersonDataSection,
  PersonDataSummary,
} from '../privacy/queries/answers.js';
export type { Suggestions } from '../search/queries/answers.js';
export type { StoreList, StorePage, StorePageProduct, StoreSummary } from '../storefront/queries/answers.js';
