import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  EraseDueAccounts,
  ExpireDueCoupons,
  RemoveExpiredKeptRecords,
  RequestDueFeedRuns,
  resumeStalledCampaigns,
} from '@offers/api/commands';
import {
  Environment,
  feedImportJobOptions,
  purgeHandledInbox,
  purgeIdempotencyKeys,
  QueueName,
  QueueRegistry,
  ScheduledJob,
  type ScheduledJobName,
  UnitOfWork,
} from '@offers/api/platform';
import {
  emptySentMails,
  ensureClickPartitions,
  purgeDevMailbox,
  purgeExpiredSignInData,
  purgeMailedAlerts,
  purgeMailedNotices,
  staleQueuedRuns,
  sweepAnonymousClicks,
  sweepMediaObjects,
} from '@offers/api/read-models';
import type { Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import { outboxPublisher } from '../events/outbox-relay.service.js';
import { addFeedImportJob } from '../feeds/feed-run-jobs.js';
import { EarningUpdates } from '../mail/earning-updates.js';
import { StoreAlerts } from '../mail/store-alerts.js';
import { InFlightJobs } from '../shutdown/in-flight-jobs.js';
import { QueueWorkerHost } from '../shutdown/queue-worker-host.js';

const EXPIRY_BATCH = 1000;

/** A queued feed run this old without its job gets the job again. */
const STALE_FEED_RUN_AFTER_MS = 120_000;

/** An event whose job has not finished this long after publishing is offered again. */
const STALE_EVENT_AFTER_MS = 120_000;

/**
 * Registers the scheduled jobs with BullMQ job schedulers (one schedule however many workers run)
 * and runs them. Schedules are registered again whenever Redis reconnects, since a restarted
 * Redis here comes back empty.
 */
@Injectable()
export class SchedulerService extends QueueWorkerHost<unknown> {
  private readonly handlers: Record<ScheduledJobName, () => Promise<string | undefined>>;

  constructor(
    environment: Environment,
    private readonly queues: QueueRegistry,
    private readonly commands: CommandBus,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    inFlight: InFlightJobs,
    private readonly storeAlerts: StoreAlerts,
    private readonly earningUpdates: EarningUpdates,
  ) {
    super(environment, inFlight, {
      queue: QueueName.Maintenance,
      concurrency: 1,
      logContext: 'Scheduler',
      workerName: 'maintenance worker',
    });
    const publisher = outboxPublisher(dataSource, queues, environment);
    this.handlers = {
      [ScheduledJob.RedeliverStaleEvents.name]: async () => {
        const count = await publisher.republishUnprocessed(STALE_EVENT_AFTER_MS);
        return count > 0 ? `offered ${count} stale events again` : undefined;
      },
      [ScheduledJob.ExpireCoupons.name]: async () => {
        let expired = 0;
        for (;;) {
          const batch = await this.commands.execute(new ExpireDueCoupons(EXPIRY_BATCH));
          expired += batch;
          if (batch < EXPIRY_BATCH) break;
        }
        return expired > 0 ? `announced ${expired} expired coupons` : undefined;
      },
      [ScheduledJob.ResumeStalledCampaigns.name]: async () => {
        const resumed = await resumeStalledCampaigns(this.unitOfWork);
        return resumed > 0 ? `resumed ${resumed} campaigns` : undefined;
      },
      [ScheduledJob.EnsureClickPartitions.name]: async () => {
        const made = await ensureClickPartitions(this.dataSource.manager, new Date());
        return made.length > 0 ? `made click partitions ${made.join(', ')}` : undefined;
      },
      [ScheduledJob.MailStoreAlerts.name]: async () => {
        const mailed = await this.dataSource.transaction((manager) =>
          this.storeAlerts.mailDue(manager, new Date()),
        );
        const purged = await purgeMailedAlerts(this.dataSource);
        return mailed + purged > 0 ? `mailed ${mailed} store alerts, forgot ${purged} old ones` : undefined;
      },
      [ScheduledJob.MailEarningUpdates.name]: async () => {
        const mailed = await this.dataSource.transaction((manager) =>
          this.earningUpdates.mailDue(manager, new Date()),
        );
        const purged = await purgeMailedNotices(this.dataSource);
        return mailed + purged > 0
          ? `mailed ${mailed} earnings digests, forgot ${purged} old notices`
          : undefined;
      },
      [ScheduledJob.ScheduleFeedRuns.name]: async () => {
        const requested = await this.commands.execute(new RequestDueFeedRuns());
        const readded = await this.readdFeedRunJobs();
        return requested + readded > 0
          ? `requested ${requested} scheduled feed runs, added ${readded} lost jobs again`
          : undefined;
      },
      [ScheduledJob.EraseDueAccounts.name]: async () => {
        const { erased, postponed } = await this.commands.execute(new EraseDueAccounts());
        return erased + postponed > 0 ? `erased ${erased} accounts, ${postponed} wait` : undefined;
      },
      [ScheduledJob.RemoveExpiredKeptRecords.name]: async () => {
        const { accounts, held } = await this.commands.execute(
          new RemoveExpiredKeptRecords(this.environment.ERASED_RECORDS_KEEP_YEARS),
        );
        return accounts + held > 0
          ? `removed the kept records of ${accounts} erased accounts, ${held} keep some for others`
          : undefined;
      },
      [ScheduledJob.PurgeIdempotencyKeys.name]: async () => {
        const purged = await purgeIdempotencyKeys(this.dataSource);
        return purged > 0 ? `removed ${purged} idempotency keys` : undefined;
      },
      [ScheduledJob.EmptySentMails.name]: async () => {
        const emptied = await emptySentMails(this.dataSource);
        const caught = await purgeDevMailbox(this.dataSource, this.environment.DEV_MAILBOX_KEEP_HOURS);
        return emptied + caught > 0
          ? `emptied ${emptied} sent mails, removed ${caught} from the development mailbox`
          : undefined;
      },
      [ScheduledJob.SweepAnonymousClicks.name]: async () => {
        const removed = await sweepAnonymousClicks(
          this.dataSource,
          this.environment.ANONYMOUS_CLICK_KEEP_DAYS,
        );
        return removed > 0 ? `counted and removed ${removed} old anonymous clicks` : undefined;
      },
      [ScheduledJob.SweepMediaObjects.name]: async () => {
        const deleted = await sweepMediaObjects(this.dataSource, this.environment.MEDIA_UPLOAD_GRACE_MINUTES);
        return deleted > 0 ? `deleted ${deleted} media objects no image holds` : undefined;
      },
      [ScheduledJob.PurgeHandledInbox.name]: async () => {
        const removed = await purgeHandledInbox(this.dataSource, this.environment.INBOX_KEEP_DAYS);
        return removed > 0 ? `removed ${removed} old inbox rows` : undefined;
      },
      [ScheduledJob.PurgeExpiredSignIns.name]: async () => {
        const { sessions, failures } = await purgeExpiredSignInData(
          this.dataSource,
          this.environment.SESSION_IDLE_HOURS,
        );
        return sessions + failures > 0
          ? `removed ${sessions} sessions, ${failures} sign-in failures`
          : undefined;
      },
    };
  }

  override onApplicationBootstrap(): void {
    super.onApplicationBootstrap();
    // In the same tick as the connection was made, so its first 'ready' is not missed.
    this.connection?.on('ready', () => void this.registerSchedules());
  }

  protected override failed(job: Job | undefined, error: Error): void {
    this.logger.warn(`${job?.name} failed: ${error.message}`);
  }

  protected async process(job: Job): Promise<string | undefined> {
    const handler = this.handlers[job.name as ScheduledJobName];
    if (!handler) throw new Error(`No handler for scheduled job ${job.name}`);
    const outcome = await handler();
    if (outcome) this.logger.log(`${job.name}: ${outcome}`);
    return outcome;
  }

  /**
   * A queued run whose job is gone (Redis restarted empty after the job was added), or finished
   * for another database's run of the same id, gets it again; the job id names the run, so a job
   * still to run is left alone.
   */
  private async readdFeedRunJobs(): Promise<number> {
    const queue = this.queues.get(QueueName.FeedImports);
    let added = 0;
    for (const run of await staleQueuedRuns(this.dataSource, STALE_FEED_RUN_AFTER_MS)) {
      if (await addFeedImportJob(queue, run.id, run.accepted, feedImportJobOptions(this.environment)))
        added += 1;
    }
    return added;
  }

  async registerSchedules(): Promise<void> {
    const queue = this.queues.get(QueueName.Maintenance);
    try {
      for (const { name, everyMs } of Object.values(ScheduledJob)) {
        await queue.upsertJobScheduler(
          name,
          { every: everyMs },
          { name, opts: { removeOnComplete: 100, removeOnFail: 500 } },
        );
      }
    } catch (error) {
      this.logger.warn(`Could not register schedules yet: ${(error as Error).message}`);
    }
  }
}
