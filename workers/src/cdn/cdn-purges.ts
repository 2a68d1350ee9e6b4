import { Inject, Injectable } from '@nestjs/common';
import {
  CashbackChanged,
  CONTENT_EVENTS,
  CouponRevealed,
  CouponVoted,
  LISTING_EVENTS,
  MERCHANT_VISIBILITY_EVENTS,
  type PublishedEvent,
  STORE_PAGE_EVENTS,
} from '@offers/api/events';
import { Environment, PRODUCER_REDIS, QueueName, QueueRegistry } from '@offers/api/platform';
import { storeIdentities, storesOfCoupons } from '@offers/api/read-models';
import {
  CDN_PURGE_ATTEMPTS,
  CDN_PURGE_BACKOFF_MS,
  CDN_PURGE_PATHS_PER_CALL,
  cdnPathsOfChange,
} from '@offers/api/rules';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';
import { InFlightJobs } from '../shutdown/in-flight-jobs.js';
import { QueueWorkerHost } from '../shutdown/queue-worker-host.js';

/** Events that only reorder the popular lists: left to CDN_MAX_AGE, never purged. */
const COUNTING_EVENTS: readonly string[] = [CouponRevealed.type, CouponVoted.type];
const COUPON_EVENTS: readonly string[] = LISTING_EVENTS.filter((type) => !COUNTING_EVENTS.includes(type));
/** Events that name their store (merchant) in the payload or as their aggregate. */
const STORE_EVENTS: readonly string[] = [
  ...STORE_PAGE_EVENTS,
  ...MERCHANT_VISIBILITY_EVENTS,
  CashbackChanged.type,
];

/** The one purge job waiting: every change within CDN_PURGE_WAIT_MS joins it. */
const PURGE_JOB = 'cdn-purge';

/** Redis keys of the paths waiting for a purge (a set), and of those a purge job took. */
function pathKeys(prefix: string) {
  return {
    waiting: `${prefix}:cdn-purge:paths`,
    takenBy: (jobId: string) => `${prefix}:cdn-purge:taken:${jobId}`,
  };
}

/**
 * Moves the waiting paths into the job's own set (kept there until they are sent, so a retry
 * after a failed call, or in another process, sends them again) and answers them all.
 */
const TAKE_PATHS = `
  if redis.call('EXISTS', KEYS[1]) == 1 then
    redis.call('SUNIONSTORE', KEYS[2], KEYS[2], KEYS[1])
    redis.call('DEL', KEYS[1])
  end
  return redis.call('SMEMBERS', KEYS[2])`;

/**
 * Tells the CDN which public paths a change touched, once the read models hold it: placed after
 * the projections (see consumers.ts), it runs when their transactions for the lot have committed.
 * It adds the lot's paths to a set in Redis and one delayed purge job whose deduplication id makes
 * every later change within the window join it, whichever workers process handled the change; the
 * job then sends the set, each path once ({@link CdnPurgeWorker}). Without CDN_PURGE_URL it handles
 * nothing at all.
 */
@Injectable()
export class CdnPurges implements EventConsumer {
  readonly name = 'cdn-purges';
  readonly handles: readonly string[];

  constructor(
    private readonly environment: Environment,
    private readonly queues: QueueRegistry,
    @Inject(PRODUCER_REDIS) private readonly redis: Redis,
  ) {
    this.handles = environment.CDN_PURGE_URL
      ? [...new Set([...COUPON_EVENTS, ...STORE_EVENTS, ...CONTENT_EVENTS])]
      : [];
  }

  handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    return this.handleLot([event], manager);
  }

  async handleLot(events: PublishedEvent[], manager: EntityManager): Promise<void> {
    const couponIds = events
      .filter((event) => COUPON_EVENTS.includes(event.type))
      .map((event) => Number(event.aggregateId));
    const merchantIds = events
      .filter((event) => STORE_EVENTS.includes(event.type))
      .map((event) => Number((event.payload as { merchantId?: number }).merchantId ?? event.aggregateId));
    merchantIds.push(...(await storesOfCoupons(manager, couponIds)));
    const stores = await storeIdentities(manager, merchantIds);
    const paths = cdnPathsOfChange(
      [...new Set(merchantIds)].map((id) => ({ id, slug: stores.get(id)?.slug ?? null })),
    );
    // The paths first, then the job: a job this change finds already waiting has not taken them yet
    // (it starts CDN_PURGE_WAIT_MS after it was added, when its deduplication id has lapsed).
    await this.redis.sadd(pathKeys(this.environment.QUEUE_PREFIX).waiting, ...paths);
    const wait = this.environment.CDN_PURGE_WAIT_MS;
    await this.queues.get(QueueName.CdnPurges).add(
      PURGE_JOB,
      {},
      {
        delay: wait,
        deduplication: { id: PURGE_JOB, ttl: wait },
        attempts: CDN_PURGE_ATTEMPTS,
        backoff: { type: 'exponential', delay: CDN_PURGE_BACKOFF_MS },
        removeOnComplete: true,
        removeOnFail: { age: 30 * 24 * 3600 },
      },
    );
  }
}

/**
 * Sends each purge job's paths to CDN_PURGE_URL as `{"paths": [...]}`, CDN_PURGE_PATHS_PER_CALL
 * at most per call. A call that fails (the CDN away, an answer other than 2xx) fails the attempt:
 * BullMQ tries again with doubling waits, and the paths wait in the job's set meanwhile.
 */
@Injectable()
export class CdnPurgeWorker extends QueueWorkerHost<Record<string, never>> {
  constructor(
    environment: Environment,
    inFlight: InFlightJobs,
    @Inject(PRODUCER_REDIS) private readonly redis: Redis,
  ) {
    super(environment, inFlight, {
      queue: QueueName.CdnPurges,
      concurrency: 1,
      logContext: 'CdnPurges',
      workerName: 'cdn-purge worker',
    });
  }

  async process(job: Job<Record<string, never>>): Promise<void> {
    const url = this.environment.CDN_PURGE_URL;
    if (!url) return;
    const redis = this.redis;
    const keys = pathKeys(this.environment.QUEUE_PREFIX);
    const taken = keys.takenBy(job.id!);
    const paths = ((await redis.eval(TAKE_PATHS, 2, keys.waiting, taken)) as string[]).sort();
    for (let start = 0; start < paths.length; start += CDN_PURGE_PATHS_PER_CALL) {
      const part = paths.slice(start, start + CDN_PURGE_PATHS_PER_CALL);
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ paths: part }),
        signal: AbortSignal.timeout(10_000),
      });
      await answer.body?.cancel();
      if (!answer.ok) throw new Error(`the purge endpoint answered ${answer.status}`);
      // Sent: a retry after a later part fails does not send these again.
      await redis.srem(taken, ...part);
    }
    await redis.del(taken);
  }

  protected override failed(job: Job | undefined, error: Error): void {
    this.logger.warn(`purge ${job?.id ?? ''} failed (attempt ${job?.attemptsMade ?? '?'}): ${error.message}`);
  }
}
