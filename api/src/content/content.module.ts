import { Module } from '@nestjs/common';
import { CouponsModule } from '../coupons/coupons.module.js';
import { ADMIN_CONTENT_CONTROLLERS } from './admin-content.controllers.js';
import { RemoveContentHandler, SaveContentHandler } from './commands/content-commands.js';
import { PublicContentController } from './public-content.controller.js';
import { HomePageQueries } from './queries/home-content.js';
import { HomeContentCache } from './queries/home-content-cache.js';

/** Home-page content: curated by admins, read by everyone. */
@Module({
  imports: [CouponsModule],
  controllers: [PublicContentController, ...ADMIN_CONTENT_CONTROLLERS],
  providers: [SaveContentHandler, RemoveContentHandler, HomePageQueries, HomeContentCache],
})
export class ContentModule {}
