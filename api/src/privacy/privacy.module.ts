import { Module } from '@nestjs/common';
import { RecordDataExportHandler } from './commands/data-export.js';
import { AnswerGrievanceHandler, FileGrievanceHandler } from './commands/grievances.js';
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
    ShopperDataController,
    MerchantDataController,
    GrievancesController,
    AdminGrievancesController,
    AdminDataRequestsController,
  ],
  providers: [RecordDataExportHandler, FileGrievanceHandler, AnswerGrievanceHandler],
})
export class PrivacyModule {}
