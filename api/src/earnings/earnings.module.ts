import { Module } from '@nestjs/common';
import { RAW_BODY_ROUTES, type RawBodyRoutes } from '../infrastructure/http/raw-body.js';
import { FEED_POSTBACK } from '../rules/feeds.js';
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
  POSTBACK_PATH,
  PostbacksController,
  UserEarningsController,
} from './earnings.controllers.js';

/** Postbacks are signed over their exact bytes (a network's may be). */
const signedPostbacks: RawBodyRoutes = { paths: [POSTBACK_PATH], prefixes: [FEED_POSTBACK.pathPrefix] };

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
    { provide: RAW_BODY_ROUTES, useValue: signedPostbacks },
  ],
})
export class EarningsModule {}
