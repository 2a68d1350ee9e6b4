import { Module } from '@nestjs/common';
import { AdminAnalyticsController, MerchantAnalyticsController } from './analytics.controllers.js';

/**
 * The dashboards' figures, read from the daily aggregates the workers' `daily-figures` projection
 * keeps from the event log.
 */
@Module({ controllers: [MerchantAnalyticsController, AdminAnalyticsController] })
export class AnalyticsModule {}
