import { Module } from '@nestjs/common';
import {
  AdminCampaignsController,
  AdminContactMessagesController,
  AdminDevMailboxController,
  AdminSubscribersController,
} from './admin-engagement.controllers.js';
import { DeleteCampaignHandler, SaveCampaignHandler, SendCampaignHandler } from './commands/campaigns.js';
import { MarkContactMessageHandledHandler, SubmitContactMessageHandler } from './commands/contact.js';
import { FollowNewsletterLinkHandler, SubscribeToNewsletterHandler } from './commands/newsletter.js';
import { FormThrottle } from './form-throttle.js';
import { ContactController, NewsletterController } from './public-engagement.controllers.js';

/** Newsletter (double opt-in, campaigns), contact messages and the development mailbox. */
@Module({
  controllers: [
    NewsletterController,
    ContactController,
    AdminContactMessagesController,
    AdminCampaignsController,
    AdminSubscribersController,
    AdminDevMailboxController,
  ],
  providers: [
    FormThrottle,
    SubscribeToNewsletterHandler,
    FollowNewsletterLinkHandler,
    SubmitContactMessageHandler,
    MarkContactMessageHandledHandler,
    SaveCampaignHandler,
    DeleteCampaignHandler,
    SendCampaignHandler,
  ],
})
export class EngagementModule {}
