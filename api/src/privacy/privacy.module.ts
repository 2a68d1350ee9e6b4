import { Module } from '@nestjs/common';
import { ChangeConsentHandler } from './commands/consents.js';
import { UserConsentsController } from './consents.controller.js';

/** What a person agreed to (consents) and, with every feature's forgetter, what erasure asks of them. */
@Module({
  controllers: [UserConsentsController],
  providers: [ChangeConsentHandler],
})
export class PrivacyModule {}
