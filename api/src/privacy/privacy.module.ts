import { Module } from '@nestjs/common';

/**
 * A person's say over their data: consents, the summary and export of what is held, deletion of
 * the account and erasure through every owner's forget function, grievances, and the admins' log
 * of data requests (`queries/data-requests.ts`).
 */
@Module({
  controllers: [],
  providers: [],
})
export class PrivacyModule {}
