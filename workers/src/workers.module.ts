import { type DynamicModule, Module, type Provider, type Type } from '@nestjs/common';
import {
  EraseDueAccountsHandler,
  RemoveExpiredKeptRecordsHandler,
  RequestDueFeedRunsHandler,
} from '@offers/api/commands';
import {
  CouponCommandsModule,
  type Environment,
  featureEntities,
  OperationsModule,
  PlatformModule,
} from '@offers/api/platform';
import {
  ADVERTISER_DIRECTORY,
  configureImageLimit,
  configureMediaStore,
  FEED_ADVERTISERS,
  FeedImport,
} from '@offers/api/read-models';
import { CdnPurgeWorker } from './cdn/cdn-purges.js';
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
  events: [DomainEventsWorker, MailSender, CampaignBatchesWorker, CdnPurgeWorker],
  // Feed runs are long and write much: a process of their own can take them.
  feeds: [FeedImportWorker, FeedImport],
  scheduler: [SchedulerService, EraseDueAccountsHandler, RemoveExpiredKeptRecordsHandler],
};

/** The background process: outbox relay, event consumers and scheduled jobs, each optional. */
@Module({})
export class WorkersModule {
  static forRoot(environment: Environment, options: WorkersOptions): DynamicModule {
    configureImageLimit(environment.MEDIA_MAX_MB);
    configureMediaStore(environment);
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
