import { Module } from '@nestjs/common';
import {
  ChangeEarningStateHandler,
  IssuePostbackSecretHandler,
  RecordPurchaseHandler,
  SetCashbackRateHandler,
} from './commands/purchases.js';
import {
  AdminCashbackRatesController,
  AdminCashbacksController,
  MerchantEarningsController,
  PostbacksController,
  UserEarningsController,
} from './earnings.controllers.js';

/** Cashback on reported purchases, its review by admins, referral bonuses and postback secrets. */
@Module({
  controllers: [
    PostbacksController,
    MerchantEarningsController,
    UserEarningsController,
    AdminCashbacksController,
    AdminCashbackRatesController,
  ],
  providers: [
    RecordPurchaseHandler,
    ChangeEarningStateHandler,
    IssuePostbackSecretHandler,
    SetCashbackRateHandler,
  ],
})
export class EarningsModule {}
