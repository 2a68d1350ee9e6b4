import { type DynamicModule, Module, type Provider, type Type } from '@nestjs/common';
import { CouponCommandsModule } from '@offers/api/coupons/coupons.module';
import { featureEntities } from '@offers/api/entities';
import { RequestDueFeedRunsHandler } from '@offers/api/feeds/commands/feed-runs';
import { ADVERTISER_DIRECTORY, FEED_ADVERTISERS } from '@offers/api/feeds/import/advertiser-directory';
import { FeedImport } from '@offers/api/feeds/import/feed-import';
import type { Environment } from '@offers/api/infrastructure/config/environment';
import { OperationsModule } from '@offers/api/infrastructure/health/operations.module';
import { PlatformModule } from '@offers/api/infrastructure/platform/platform.module';
import { configureImageLimit } from '@offers/api/media/images';
import { DomainEventsWorker } from './events/domain-events.worker.js';
import { EVENT_CONSUMERS, type EventConsumer } from './events/event-consumer.js';
import { EventDispatcher } from './events/event-dispatcher.js';
import { EventOutcomes } from './events/event-outcomes.js';
import { OutboxRelayService } from './events/outbox-relay.service.js';
import { FeedImportWorker } from './feeds/feed-import.worker.js';
import { CampaignBatchesWorker } from './mail/campaign-batches.js';
import { EarningUpdates } from './mail/earning-updates.js';
import { MailSender } from './mail/mail-sender.js';
import { StoreAlerts } from './mail/store-alerts.js';
import { SchedulerService } from './scheduling/scheduler.service.js';
import { InFlightJobs } from './shutdown/in-flight-jobs.js';

export type WorkerRole = 'relay' | 'events' | 'scheduler' | 'feeds';

export function parseWorkerRoles(setting: string): WorkerRole[] {
  return setting.split(',').map((role) => role.trim() as WorkerRole);
}

export interface WorkersOptions {
  roles: WorkerRole[];
  consumers: Type<EventConsumer>[];
}

const roleProviders: Record<WorkerRole, Provider[]> = {
  relay: [OutboxRelayService],
  events: [DomainEventsWorker, MailSender, CampaignBatchesWorker],
  // Feed runs are long and write much: a process of their own can take them.
  feeds: [FeedImportWorker, FeedImport],
  scheduler: [SchedulerService],
};

/** The background process: outbox relay, event consumers and scheduled jobs, each optional. */
@Module({})
export class WorkersModule {
  static forRoot(environment: Environment, options: WorkersOptions): DynamicModule {
    configureImageLimit(environment.MEDIA_MAX_MB);
    return {
      module: WorkersModule,
      imports: [
        PlatformModule.forRoot(environment, { pool: 'workers', entities: featureEntities }),
        OperationsModule.forRoot('workers'),
        CouponCommandsModule,
      ],
      providers: [
        ...options.consumers,
        {
          provide: EVENT_CONSUMERS,
          useFactory: (...consumers: EventConsumer[]) => consumers,
          inject: options.consumers,
        },
        { provide: ADVERTISER_DIRECTORY, useValue: FEED_ADVERTISERS },
        EventDispatcher,
        EventOutcomes,
        InFlightJobs,
        StoreAlerts,
        EarningUpdates,
        RequestDueFeedRunsHandler,
        ...options.roles.flatMap((role) => roleProviders[role]),
      ],
      exports: [EventDispatcher, InFlightJobs],
    };
  }
}
