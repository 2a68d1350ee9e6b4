import { Module } from '@nestjs/common';
import {
  AdminFeedAdvertisersController,
  AdminFeedCategoriesController,
} from './admin-advertisers.controllers.js';
import { AdminFeedRunsController, AdminFeedSourcesController } from './admin-feeds.controllers.js';
import {
  CreateFeedAdvertiserStoreHandler,
  MapFeedAdvertiserHandler,
  MapFeedCategoryHandler,
} from './commands/advertisers.js';
import { AcceptFeedRunHandler, DiscardFeedRunHandler, RequestFeedRunHandler } from './commands/feed-runs.js';
import {
  CreateFeedSourceHandler,
  DeleteFeedSourceHandler,
  RotateFeedPostbackSecretHandler,
  UpdateFeedSourceHandler,
} from './commands/feed-sources.js';

/** Coupons from affiliate networks' feeds: the sources admins manage and the runs that import them. */
@Module({
  controllers: [
    AdminFeedSourcesController,
    AdminFeedRunsController,
    AdminFeedAdvertisersController,
    AdminFeedCategoriesController,
  ],
  providers: [
    CreateFeedSourceHandler,
    UpdateFeedSourceHandler,
    DeleteFeedSourceHandler,
    RotateFeedPostbackSecretHandler,
    RequestFeedRunHandler,
    AcceptFeedRunHandler,
    DiscardFeedRunHandler,
    MapFeedAdvertiserHandler,
    CreateFeedAdvertiserStoreHandler,
    MapFeedCategoryHandler,
  ],
})
export class FeedsModule {}
