import { Module } from '@nestjs/common';
import {
  AdminClaimsController,
  ClaimInvoicesController,
  ShopperClaimsController,
} from './claims.controllers.js';
import { ApproveClaimHandler, FileClaimHandler, RejectClaimHandler } from './commands/claims.js';

/**
 * Missing-cashback claims: a shopper's claim for a click-out the store never reported, and the
 * admins' queue where claims and held purchases (no click, above the cap) are approved or rejected.
 * Other features put held purchases in the queue through `queueHeldPurchase` (queries/held-purchases.ts).
 */
@Module({
  controllers: [ShopperClaimsController, AdminClaimsController, ClaimInvoicesController],
  providers: [FileClaimHandler, ApproveClaimHandler, RejectClaimHandler],
})
export class ClaimsModule {}
