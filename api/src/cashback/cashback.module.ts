import { Module } from '@nestjs/common';
import { AdminCashbackController } from './admin-cashback.controllers.js';
import { DecideCashbackProposalHandler } from './commands/proposals.js';
import { SetCouponCashbackHandler, SetStoreCashbackHandler } from './commands/store-cashback.js';

/**
 * Stores' cashback: rates per store, category and coupon, terms and settings, their history, and
 * the rates feed sources propose. Other features read it through `storeCashback` and
 * `rateAtClick` (queries/rates.ts) and propose through `proposeCashback` (commands/proposals.ts).
 */
@Module({
  controllers: [AdminCashbackController],
  providers: [SetStoreCashbackHandler, SetCouponCashbackHandler, DecideCashbackProposalHandler],
})
export class CashbackModule {}
