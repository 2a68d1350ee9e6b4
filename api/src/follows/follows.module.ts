import { Module } from '@nestjs/common';
import { FollowStoreAlertLinkHandler, FollowStoreHandler, UnfollowStoreHandler } from './commands/follows.js';
import { StoreAlertLinksController, UserFollowsController } from './follows.controllers.js';

/** Shoppers following stores; the alert mails themselves are sent by the workers (store-alerts). */
@Module({
  controllers: [UserFollowsController, StoreAlertLinksController],
  providers: [FollowStoreHandler, UnfollowStoreHandler, FollowStoreAlertLinkHandler],
})
export class FollowsModule {}
