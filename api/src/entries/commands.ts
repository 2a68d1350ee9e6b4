/** Commands and command handlers other processes run (the workers, tests, benchmarks). */

export type { CouponDraft } from '../coupons/commands/addition.js';
export { AddCoupon } from '../coupons/commands/addition.js';
export type { CouponLot } from '../coupons/commands/coupon-lot.js';
export { ApplyCouponLot } from '../coupons/commands/coupon-lot.js';
export { ExpireDueCoupons } from '../coupons/commands/expiry.js';
export { EndCoupons, ReviseCoupon } from '../coupons/commands/feed-changes.js';
export { resumeStalledCampaigns } from '../engagement/commands/campaigns.js';
export { RequestDueFeedRuns, RequestDueFeedRunsHandler } from '../feeds/commands/feed-runs.js';
export { EraseDueAccounts, EraseDueAccountsHandler } from '../privacy/commands/erasure.js';
export {
  RemoveExpiredKeptRecords,
  RemoveExpiredKeptRecordsHandler,
} from '../privacy/commands/kept-records.js';
