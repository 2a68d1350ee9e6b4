import { Module } from '@nestjs/common';
import { ChangePayoutStateHandler, PayPayoutsHandler } from './commands/payout-states.js';
import { RequestPayoutHandler } from './commands/request-payout.js';
import { AdminPayoutsController, ShopperPayoutsController } from './payouts.controllers.js';

/** Payouts of confirmed cashback to a UPI ID or a bank account: requests, the admins' payout run. */
@Module({
  controllers: [ShopperPayoutsController, AdminPayoutsController],
  providers: [RequestPayoutHandler, ChangePayoutStateHandler, PayPayoutsHandler],
})
export class PayoutsModule {}
