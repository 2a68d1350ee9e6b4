import type { Type } from '@nestjs/common';
import { CdnPurges } from './cdn/cdn-purges.js';
import { CouponListingProjection } from './consumers/coupon-listing.projection.js';
import { DailyFiguresProjection } from './consumers/daily-figures.projection.js';
import { HomeContentProjection } from './consumers/home-content.projection.js';
import { StorePageProjection } from './consumers/store-page.projection.js';
import type { EventConsumer } from './events/event-consumer.js';
import { FeedRunJobs } from './feeds/feed-run-jobs.js';
import { CampaignFanOut } from './mail/campaign-batches.js';
import { EarningUpdatesConsumer } from './mail/earning-updates.js';
import { MailConsumer } from './mail/mail-consumer.js';
import { StoreAlertsConsumer } from './mail/store-alerts.js';

/**
 * Every event consumer of the product, in one place. Each declares the event types it handles;
 * the dispatcher routes by those.
 */
export const eventConsumers: Type<EventConsumer>[] = [
  CouponListingProjection,
  HomeContentProjection,
  StorePageProjection,
  MailConsumer,
  CampaignFanOut,
  StoreAlertsConsumer,
  EarningUpdatesConsumer,
  DailyFiguresProjection,
  FeedRunJobs,
  // Last: it runs once the projections' transactions for the lot have committed.
  CdnPurges,
];
