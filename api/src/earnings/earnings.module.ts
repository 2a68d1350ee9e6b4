import { Module } from '@nestjs/common';
import {
  ChangeEarningStateHandler,
  IssuePostbackSecretHandler,
  RecordNetworkPurchaseHandler,
  RecordPurchaseHandler,
} from './commands/purchases.js';
import {
  AdminCashbacksController,
  MerchantEarningsController,
  NetworkPostbacksController,
  PostbacksController,
  UserEarningsController,
} from './earnings.controllers.js';

/**
 * Cashback on purchases reported by merchants' and networks' postbacks, its review by admins,
 * referral bonuses and postback secrets.
 */
@Module({
  controllers: [
    PostbacksController,
    NetworkPostbacksController,
    MerchantEarningsController,
    UserEarningsController,
    AdminCashbacksController,
  ],
  providers: [
    RecordPurchaseHandler,
    RecordNetworkPurchaseHandler,
    ChangeEarningStateHandler,
    IssuePostbackSecretHandler,
  ],
})
export class EarningsModule {}
