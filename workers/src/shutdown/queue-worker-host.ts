import {
  type BeforeApplicationShutdown,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Environment } from '@offers/api/infrastructure/config/environment';
import { type QueueName, workerLockOptions } from '@offers/api/infrastructure/jobs/queues';
import {
  closeRedisConnection,
  createRedisConnection,
} from '@offers/api/infrastructure/redis/redis-connection';
import { type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { InFlightJobs } from './in-flight-jobs.js';

/** The queue a host runs and how. */
export interface QueueWorkerOptions {
  queue: QueueName;
  /** Jobs run at once in this process. */
  concurrency: number;
  /** The context of the host's log lines. */
  logContext: string;
  /** How its errors name the worker ("domain-events worker: ..."). */
  workerName: string;
}

/**
 * A provider that runs one queue's jobs with a BullMQ `Worker` on a Redis connection of its own:
 * started once the application is up, with the queue prefix and the lock options every worker
 * shares; each job counted in flight (a stop past its grace period hands it back); on a stop it
 * takes no more jobs and waits for those running while the database is still open, and only then
 * closes its connection.
 */
export abstract class QueueWorkerHost<D>
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  protected readonly logger: Logger;
  protected worker?: Worker<D>;
  protected connection?: Redis;

  constructor(
    protected readonly environment: Environment,
    private readonly inFlight: InFlightJobs,
    private readonly options: QueueWorkerOptions,
  ) {
    this.logger = new Logger(options.logContext);
  }

  /** Runs one job; what it throws fails the attempt (BullMQ retries it per the job's options). */
  protected abstract process(job: Job<D>): Promise<unknown>;

  /** Called when an attempt of a job failed; logging or marking it is the host's own. */
  protected failed?(job: Job<D> | undefined, error: Error): void;

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.environment.REDIS_URL, 'worker', this.logger);
    this.worker = new Worker<D>(
      this.options.queue,
      (job, token) => this.inFlight.run(job, token, () => this.process(job)),
      {
        connection: this.connection,
        prefix: this.environment.QUEUE_PREFIX,
        concurrency: this.options.concurrency,
        ...workerLockOptions(this.environment),
      },
    );
    const failed = this.failed?.bind(this);
    if (failed) this.worker.on('failed', failed);
    this.worker.on('error', (error) => this.logger.warn(`${this.options.workerName}: ${error.message}`));
  }

  /** Stops taking jobs and waits for those running (see SHUTDOWN_GRACE_MS), database still open. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }

  onApplicationShutdown(): void {
    closeRedisConnection(this.connection);
  }
}
