import { randomUUID } from 'node:crypto';
import type { PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
import { markEventFailed, markEventsPublished } from '@offers/api/infrastructure/events/outbox-store';
import {
  claimUnprocessedEvents,
  claimUnpublishedEvents,
  type OutboxRow,
} from '@offers/api/infrastructure/events/queries/outbox';
import { domainEventJobOptions, type RetryPolicy } from '@offers/api/infrastructure/jobs/queues';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DataSource, EntityManager } from 'typeorm';

export interface RelayLogger {
  log(message: string): void;
  warn(message: string): void;
}

export interface OutboxRelayOptions {
  /** The Redis channel OutboxSignal publishes on after each commit that wrote events. */
  signalChannel: string;
  /** Fallback poll when no signal arrives (a lost signal, Redis away meanwhile). */
  pollIntervalMs?: number;
  /** Ceiling of the back-off while Redis or PostgreSQL is unreachable. */
  maxBackoffMs?: number;
}

/**
 * Moves outbox rows to the `domain-events` queue. A row is marked published only after BullMQ
 * accepted its job, in the transaction that locked it; the job id is the event id, so a relay that
 * dies between the two leaves a row that the next pass republishes without creating a second job.
 * Several publishers may run at once: rows are claimed with SKIP LOCKED.
 */
export class OutboxPublisher {
  constructor(
    private readonly dataSource: DataSource,
    private readonly queue: Queue,
    private readonly retry: RetryPolicy,
    readonly batchSize = 500,
  ) {}

  /** Publishes one batch of unpublished events; returns how many were moved. */
  publishPending(): Promise<number> {
    return this.publishClaimed((manager) => claimUnpublishedEvents(manager, this.batchSize));
  }

  /**
   * Publishes again events that were published at least `olderThanMs` ago and that no consumer run
   * has finished. Jobs waiting or running are left alone by BullMQ (same job id); vanished ones are
   * recreated. A job BullMQ keeps as finished while its event is not marked (a mark lost by an
   * earlier version, or cleared by hand) would make BullMQ ignore the new one for a day: a
   * completed one is removed and offered again (its consumers skip what they applied, and the event
   * is marked), a failed one has its failure written to the outbox. Returns how many rows it
   * claimed.
   */
  async republishUnprocessed(olderThanMs: number): Promise<number> {
    let total = 0;
    for (;;) {
      const moved = await this.publishClaimed(
        (manager) => claimUnprocessedEvents(manager, olderThanMs, this.batchSize),
        true,
      );
      total += moved;
      if (moved < this.batchSize) return total;
    }
  }

  private publishClaimed(
    claim: (manager: EntityManager) => Promise<OutboxRow[]>,
    reoffer = false,
  ): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const claimed = await claim(manager);
      if (claimed.length === 0) return 0;
      // The claimed rows are locked: a worker cannot mark one processed (and so complete its job)
      // until this transaction ends, so a job seen finished here finished without its mark.
      const rows = reoffer ? await this.settleFinishedJobs(manager, claimed) : claimed;
      if (rows.length === 0) return claimed.length;
      const opts = domainEventJobOptions(this.retry);
      await this.queue.addBulk(
        rows.map((row) => ({
          name: row.type,
          data: toPublishedEvent(row),
          opts: { ...opts, jobId: row.id },
        })),
      );
      await markEventsPublished(
        manager,
        rows.map((row) => row.id),
      );
      return claimed.length;
    });
  }

  /** Removes the completed jobs of claimed rows, records the failed ones; answers the rows to add. */
  private async settleFinishedJobs(manager: EntityManager, rows: OutboxRow[]): Promise<OutboxRow[]> {
    const states = await Promise.all(rows.map((row) => this.queue.getJobState(row.id)));
    const offered: OutboxRow[] = [];
    for (const [index, row] of rows.entries()) {
      const state = states[index];
      if (state === 'completed') {
        await this.queue.remove(row.id);
      } else if (state === 'failed') {
        const job = await this.queue.getJob(row.id);
        await markEventFailed(
          manager,
          row.id,
          (job?.failedReason ?? 'failed').slice(0, 2000),
          job?.finishedOn ?? Date.now(),
        );
        continue;
      }
      offered.push(row);
    }
    return offered;
  }
}

/**
 * Keeps the outbox flowing: publishes as soon as a commit signals it (with a slow poll as a
 * safety net), backs off while Redis or PostgreSQL is unreachable, and republishes unprocessed
 * events when Redis comes back empty.
 */
export class OutboxRelay {
  private readonly pollIntervalMs: number;
  private readonly maxBackoffMs: number;
  private running = false;
  private loop?: Promise<void>;
  private endWait?: () => void;
  private signalled = false;
  private knownEpoch?: string;
  private republishAll = true; // on start: jobs of published-but-unprocessed events may be gone

  constructor(
    private readonly publisher: OutboxPublisher,
    /** A connection used to notice that Redis came back empty. */
    private readonly redis: Redis,
    /** A connection of its own for the commits' signals (Redis gives a subscriber nothing else). */
    private readonly subscriber: Redis,
    private readonly epochKey: string,
    private readonly logger: RelayLogger,
    private readonly options: OutboxRelayOptions,
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.maxBackoffMs = options.maxBackoffMs ?? 5000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.redis.on('ready', this.onRedisReady);
    if (this.redis.status === 'ready') this.onRedisReady();
    // Signals wake the relay at once. After a reconnect (ioredis subscribes again by itself) one
    // pass looks for what was committed meanwhile; the poll covers any other gap.
    this.subscriber.on('message', this.wake);
    this.subscriber.on('ready', this.wake);
    this.subscriber.subscribe(this.options.signalChannel).catch((error: unknown) => {
      this.logger.warn(`Outbox relay cannot hear commits, relaying by polling: ${describe(error)}`);
    });
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.redis.off('ready', this.onRedisReady);
    this.subscriber.off('message', this.wake);
    this.subscriber.off('ready', this.wake);
    this.endWait?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        if (this.republishAll) {
          this.republishAll = false;
          const again = await this.publisher.republishUnprocessed(0).catch((error: unknown) => {
            this.republishAll = true;
            throw error;
          });
          if (again > 0) this.logger.log(`Republished ${again} events whose jobs may have been lost`);
        }
        const moved = await this.publisher.publishPending();
        if (failures > 0) this.logger.log('Outbox relay resumed publishing');
        failures = 0;
        if (moved < this.publisher.batchSize) await this.waitForSignal(this.pollIntervalMs);
      } catch (error) {
        failures += 1;
        if (failures === 1) this.logger.warn(`Outbox relay cannot publish, backing off: ${describe(error)}`);
        await delay(Math.min(this.maxBackoffMs, 100 * 2 ** Math.min(failures, 10)));
      }
    }
  }

  private waitForSignal(ms: number): Promise<void> {
    if (this.signalled || !this.running) {
      this.signalled = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        // Cleared however the wait ends, so a signal during the next pass is remembered
        // in `signalled` instead of calling a finished wait.
        this.endWait = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.endWait = finish;
    });
  }

  private wake = () => {
    if (this.endWait) this.endWait();
    else this.signalled = true;
  };

  /**
   * Redis here keeps nothing on disk: after a restart its queues are empty. A marker key tells a
   * fresh Redis from a reconnect to the same one; on a fresh one, unprocessed events go out again.
   */
  private onRedisReady = () => {
    void this.checkEpoch().catch(() => undefined);
  };

  private async checkEpoch(): Promise<void> {
    const key = this.epochKey;
    await this.redis.set(key, randomUUID(), 'NX');
    const epoch = await this.redis.get(key);
    if (epoch && this.knownEpoch && epoch !== this.knownEpoch) {
      this.logger.warn('Redis came back without its data; republishing unprocessed events');
      this.republishAll = true;
      this.wake();
    }
    if (epoch) this.knownEpoch = epoch;
  }
}

function toPublishedEvent(row: OutboxRow): PublishedEvent {
  return {
    id: row.id,
    position: String(row.position),
    type: row.type,
    aggregateType: row.aggregate_type,
    aggregateId: row.aggregate_id,
    payload: row.payload,
    occurredAt: new Date(row.occurred_at).toISOString(),
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
