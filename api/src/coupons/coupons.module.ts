import { Module } from '@nestjs/common';
import { AdminCouponsController, AdminSlotsController } from './admin-coupons.controller.js';
import { AddCouponHandler } from './commands/addition.js';
import { ApplyCouponLotHandler } from './commands/coupon-lot.js';
import { ExpireDueCouponsHandler } from './commands/expiry.js';
import { EndCouponsHandler, ReviseCouponHandler } from './commands/feed-changes.js';
import { RevealCouponHandler, RevealLimiter } from './commands/reveal.js';
import { ApproveCouponHandler, RejectCouponHandler } from './commands/review.js';
import { CreateSlotHandler, DeleteSlotHandler, UpdateSlotHandler } from './commands/slots.js';
import { SubmitCouponHandler, UpdateCouponHandler, WithdrawCouponHandler } from './commands/submission.js';
import { VoteOnCouponHandler } from './commands/vote.js';
import { MerchantCouponsController, MerchantSlotsController } from './merchant-coupons.controller.js';
import { PublicCouponsController } from './public-coupons.controller.js';
import { ListingCache } from './queries/listing-cache.js';
import { CouponListings } from './queries/listings.js';

/** The command handlers of coupons, shared by the API and the workers (the expiry sweep, imports). */
@Module({
  providers: [
    SubmitCouponHandler,
    AddCouponHandler,
    ReviseCouponHandler,
    EndCouponsHandler,
    ApplyCouponLotHandler,
    UpdateCouponHandler,
    WithdrawCouponHandler,
    ApproveCouponHandler,
    RejectCouponHandler,
    ExpireDueCouponsHandler,
    RevealCouponHandler,
    VoteOnCouponHandler,
    CreateSlotHandler,
    UpdateSlotHandler,
    DeleteSlotHandler,
    RevealLimiter,
  ],
})
export class CouponCommandsModule {}

/** Coupons: submission by merchants, review into slots by admins, public listings and reveals. */
@Module({
  imports: [CouponCommandsModule],
  controllers: [
    PublicCouponsController,
    MerchantCouponsController,
    MerchantSlotsController,
    AdminCouponsController,
    AdminSlotsController,
  ],
  providers: [CouponListings, ListingCache],
  exports: [CouponListings, ListingCache],
})
export class CouponsModule {}
