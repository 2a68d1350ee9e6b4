import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Environment } from '@offers/api/config/environment';
import type { PublishedEvent } from '@offers/api/events/domain-event';
import { QueueName, workerLockOptions } from '@offers/api/jobs/queues';
import { Metrics } from '@offers/api/metrics/metrics';
import { closeRedisConnection, createRedisConnection } from '@offers/api/redis/redis-connection';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { InFlightJobs } from '../shutdown/in-flight-jobs.js';
import { EventDispatcher } from './event-dispatcher.js';
import { EventOutcomes } from './event-outcomes.js';

/** Consumes the `domain-events` queue; BullMQ retries a failing event with exponential back-off. */
@Injectable()
export class DomainEventsWorker
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger(DomainEventsWorker.name);
  private worker?: Worker<PublishedEvent>;
  private connection?: Redis;

  constructor(
    private readonly environment: Environment,
    private readonly dispatcher: EventDispatcher,
    private readonly outcomes: EventOutcomes,
    private readonly inFlight: InFlightJobs,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.environment.REDIS_URL, 'worker', this.logger);
    this.worker = new Worker<PublishedEvent>(
      QueueName.DomainEvents,
      (job, token) => this.inFlight.run(job, token, () => this.process(job)),
      {
        connection: this.connection,
        prefix: this.environment.QUEUE_PREFIX,
        concurrency: this.environment.EVENT_CONCURRENCY,
        ...workerLockOptions(this.environment),
      },
    );
    this.worker.on('failed', (job, error) => void this.onFailed(job, error));
    this.worker.on('error', (error) => this.logger.warn(`domain-events worker: ${error.message}`));
  }

  private async process(job: Job<PublishedEvent>): Promise<void> {
    // Resolves once the event's effects and its processed mark are committed (see EventOutcomes):
    // only then may the job complete.
    await this.dispatcher.dispatch(job.data);
  }

  private async onFailed(job: Job<PublishedEvent> | undefined, error: Error): Promise<void> {
    if (!job) return;
    const final = error instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
    this.logger.warn(
      `${job.data.type} ${job.data.id} failed (attempt ${job.attemptsMade}${final ? ', giving up' : ''}): ${error.message}`,
    );
    if (!final) return;
    await this.outcomes.failed(job.data.id, error.message).catch(() => undefined);
    // Counted once the outbox records it, so the counter never runs ahead of the failed gauge.
    this.metrics.eventsFailed.inc({ type: job.data.type });
  }

  /** Stops taking events and waits for those running (see SHUTDOWN_GRACE_MS), database still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }

  onApplicationShutdown(): void {
    closeRedisConnection(this.connection);
  }
}
