import type { JobsOptions, WorkerOptions } from 'bullmq';
import type { Environment } from '../config/environment.js';

/** Every BullMQ queue of the product, declared in one place. */
export const QueueName = {
  /** One job per committed domain event; the job id is the event id. */
  DomainEvents: 'domain-events',
  /** Scheduled housekeeping (see {@link ScheduledJob}). */
  Maintenance: 'maintenance',
  /** Newsletter campaigns, sent in batches of subscribers (see workers/src/mail/campaign-batches.ts). */
  NewsletterCampaigns: 'newsletter-campaigns',
  /**
   * One job per feed run to import (see api/src/feeds): the job id names the run (`run-<id>`), so
   * adding it again for the same run adds nothing.
   */
  FeedImports: 'feed-imports',
  /** Purges of the CDN's copies of changed public paths (see workers/src/cdn/cdn-purges.ts). */
  CdnPurges: 'cdn-purges',
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

/**
 * How every worker of the product holds its jobs. BullMQ's defaults (a 30 s lock, a check every
 * 30 s) left the jobs of a killed workers process waiting up to a minute; with these, another
 * process (or the restarted one) takes them up within the lock plus two checks, under 10 s by
 * default. A job counts as stalled up to three times (three processes died holding it) before it
 * fails, since a short lock is sooner missed by a process that is merely slow.
 */
export function workerLockOptions(
  environment: Pick<Environment, 'JOB_LOCK_MS' | 'JOB_STALLED_CHECK_MS'>,
): Pick<WorkerOptions, 'lockDuration' | 'stalledInterval' | 'maxStalledCount'> {
  return {
    lockDuration: environment.JOB_LOCK_MS,
    stalledInterval: environment.JOB_STALLED_CHECK_MS,
    maxStalledCount: 3,
  };
}

export function domainEventJobOptions(retry: RetryPolicy): JobsOptions {
  return {
    attempts: retry.attempts,
    backoff: { type: 'exponential', delay: retry.backoffMs },
    // Completed jobs are kept for a while so the job-id deduplication still sees them if a relay
    // republishes; the outbox remains the lasting record.
    removeOnComplete: { age: 24 * 3600, count: 50_000 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}

/**
 * A feed import that fails (the network's server down, a body cut short) is tried again later,
 * with doubling waits from FEED_RETRY_DELAY_MS (30 s, 1, 2 and 4 minutes by default), and then
 * shows as failed. The run's row is the lasting record; finished jobs are kept a day so a job id
 * added again is still recognised.
 */
export function feedImportJobOptions(environment: Pick<Environment, 'FEED_RETRY_DELAY_MS'>): JobsOptions {
  return {
    attempts: FEED_IMPORT_ATTEMPTS,
    backoff: { type: 'exponential', delay: environment.FEED_RETRY_DELAY_MS },
    removeOnComplete: { age: 24 * 3600 },
    removeOnFail: { age: 30 * 24 * 3600 },
  };
}

export const FEED_IMPORT_ATTEMPTS = 5;

/** Housekeeping that runs on a schedule in the workers; the scheduler registers each once. */
export const ScheduledJob = {
  /** Publishes again events whose job vanished (Redis restarted empty, a job was removed). */
  RedeliverStaleEvents: { name: 'redeliver-stale-events', everyMs: 30_000 },
  /** Announces live coupons whose expiry date has passed (each ends by the clock; see coupon-status.ts). */
  ExpireCoupons: { name: 'expire-coupons', everyMs: 60_000 },
  /** Deletes expired sessions and sign-in failures older than the throttle window. */
  PurgeExpiredSignIns: { name: 'purge-expired-sign-ins', everyMs: 3600_000 },
  /** Deletes the answers kept for Idempotency-Keys once their day is over. */
  PurgeIdempotencyKeys: { name: 'purge-idempotency-keys', everyMs: 3600_000 },
  /** Mails the store alerts that waited (a store's later offers of the day, the quiet hours). */
  MailStoreAlerts: { name: 'mail-store-alerts', everyMs: 15 * 60_000 },
  /** Mails each shopper's digest of purchases tracked and cashback confirmed (one a day at most). */
  MailEarningUpdates: { name: 'mail-earning-updates', everyMs: 60_000 },
  /** Offers again the batches of campaigns stuck sending (their jobs vanished with Redis). */
  ResumeStalledCampaigns: { name: 'resume-stalled-campaigns', everyMs: 60_000 },
  /**
   * Requests the runs of feed sources whose schedule is due, and adds again the job of a run left
   * queued without one (Redis restarted empty).
   */
  ScheduleFeedRuns: { name: 'schedule-feed-runs', everyMs: 60_000 },
  /**
   * Erases the accounts whose deletion was confirmed and whose grace period is over, each in one
   * transaction (see api/src/privacy/commands/erasure.ts).
   */
  EraseDueAccounts: { name: 'erase-due-accounts', everyMs: 15 * 60_000 },
  /**
   * Removes what erasures kept (earnings, payouts, claims, the pseudonymous account) once
   * ERASED_RECORDS_KEEP_YEARS have passed since (see api/src/privacy/commands/kept-records.ts).
   */
  RemoveExpiredKeptRecords: { name: 'remove-expired-kept-records', everyMs: 24 * 3600_000 },
  /** Makes this month's and next month's partitions of the clicks table, weeks before they fill. */
  EnsureClickPartitions: { name: 'ensure-click-partitions', everyMs: 6 * 3600_000 },
  /**
   * Empties any sent mail still holding its bodies or headers (the sender empties each as it marks
   * it sent), and deletes the development mailbox's mails past DEV_MAILBOX_KEEP_HOURS.
   */
  EmptySentMails: { name: 'empty-sent-mails', everyMs: 3600_000 },
  /** Counts anonymous click-outs past ANONYMOUS_CLICK_KEEP_DAYS into daily counts and deletes them. */
  SweepAnonymousClicks: { name: 'sweep-anonymous-clicks', everyMs: 6 * 3600_000 },
  /**
   * Deletes the bucket's objects no row holds: uploads whose transaction rolled back (recorded
   * more than MEDIA_UPLOAD_GRACE_MINUTES ago) and released ones (see api/src/media/pending-objects.ts).
   */
  SweepMediaObjects: { name: 'sweep-media-objects', everyMs: 15 * 60_000 },
  /** Deletes consumers' inbox rows of processed events past INBOX_KEEP_DAYS. */
  PurgeHandledInbox: { name: 'purge-handled-inbox', everyMs: 3600_000 },
} as const satisfies Record<string, { name: string; everyMs: number }>;
export type ScheduledJobName = (typeof ScheduledJob)[keyof typeof ScheduledJob]['name'];
