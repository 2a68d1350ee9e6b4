import { Module } from '@nestjs/common';
import {
  CancelAccountDeletionHandler,
  FollowDeletionLinkHandler,
  RequestAccountDeletionHandler,
} from './commands/deletion.js';
import { EraseDueAccountsHandler } from './commands/erasure.js';
import {
  DeletionLinksController,
  MerchantAccountDeletionController,
  ShopperAccountDeletionController,
} from './deletion.controllers.js';

/**
 * A person's say over their data: consents, the summary and export of what is held, deletion of
 * the account and erasure through every owner's forget function, grievances, and the admins' log
 * of data requests (`queries/data-requests.ts`).
 */
@Module({
  controllers: [ShopperAccountDeletionController, MerchantAccountDeletionController, DeletionLinksController],
  providers: [
    RequestAccountDeletionHandler,
    FollowDeletionLinkHandler,
    CancelAccountDeletionHandler,
    EraseDueAccountsHandler,
  ],
})
export class PrivacyModule {}
