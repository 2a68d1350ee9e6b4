import { Module } from '@nestjs/common';
import { ChangeConsentHandler } from './commands/consents.js';
import { RecordDataExportHandler } from './commands/data-export.js';
import {
  CancelAccountDeletionHandler,
  FollowDeletionLinkHandler,
  RequestAccountDeletionHandler,
} from './commands/deletion.js';
import { EraseDueAccountsHandler } from './commands/erasure.js';
import { AnswerGrievanceHandler, FileGrievanceHandler } from './commands/grievances.js';
import { RemoveExpiredKeptRecordsHandler } from './commands/kept-records.js';
import { UserConsentsController } from './consents.controller.js';
import {
  DeletionLinksController,
  MerchantAccountDeletionController,
  ShopperAccountDeletionController,
} from './deletion.controllers.js';
import {
  AdminDataRequestsController,
  AdminGrievancesController,
  GrievancesController,
  MerchantDataController,
  ShopperDataController,
} from './privacy.controllers.js';

/**
 * A person's say over their data: consents, the summary and export of what is held
 * (`exporters.ts`: every owner's describe function), deletion of the account and erasure through
 * every owner's forget function, grievances, and the admins' log of data requests
 * (`queries/data-requests.ts`).
 */
@Module({
  controllers: [
    UserConsentsController,
    ShopperDataController,
    MerchantDataController,
    GrievancesController,
    AdminGrievancesController,
    AdminDataRequestsController,
    ShopperAccountDeletionController,
    MerchantAccountDeletionController,
    DeletionLinksController,
  ],
  providers: [
    ChangeConsentHandler,
    RecordDataExportHandler,
    FileGrievanceHandler,
    AnswerGrievanceHandler,
    RequestAccountDeletionHandler,
    FollowDeletionLinkHandler,
    CancelAccountDeletionHandler,
    EraseDueAccountsHandler,
    RemoveExpiredKeptRecordsHandler,
  ],
})
export class PrivacyModule {}
