import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Environment } from '@offers/api/config/environment';
import type { FeedImportJob } from '@offers/api/feeds/feed-import-job';
import { FeedImport } from '@offers/api/feeds/import/feed-import';
import { FEED_IMPORT_ATTEMPTS, QueueName, workerLockOptions } from '@offers/api/jobs/queues';
import { closeRedisConnection, createRedisConnection } from '@offers/api/redis/redis-connection';
import { type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { InFlightJobs } from '../shutdown/in-flight-jobs.js';

/**
 * Runs the jobs of the `feed-imports` queue, one run at a time per process (a run is long and
 * writes much). A run that throws (a fetch that failed, a body that is not the format) is tried
 * again with the queue's backoff; after the last attempt it is marked failed. A process killed
 * mid-run leaves its job to be taken up again when its lock expires: the run resumes.
 */
@Injectable()
export class FeedImportWorker
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('FeedImports');
  private worker?: Worker<FeedImportJob>;
  private connection?: Redis;

  constructor(
    private readonly environment: Environment,
    private readonly feedImport: FeedImport,
    private readonly inFlight: InFlightJobs,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.environment.REDIS_URL, 'worker', this.logger);
    this.worker = new Worker<FeedImportJob>(
      QueueName.FeedImports,
      (job, token) => this.inFlight.run(job, token, () => this.process(job)),
      {
        connection: this.connection,
        prefix: this.environment.QUEUE_PREFIX,
        concurrency: 1,
        ...workerLockOptions(this.environment),
      },
    );
    this.worker.on('error', (error) => this.logger.warn(`feed import worker: ${error.message}`));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
  }

  onApplicationShutdown(): void {
    closeRedisConnection(this.connection);
  }

  async process(job: Job<FeedImportJob>): Promise<void> {
    const { runId } = job.data;
    try {
      const result = await this.feedImport.run(runId);
      if (result.status === 'succeeded') {
        this.logger.log(`feed run ${runId} of source ${result.sourceId} succeeded`);
      }
    } catch (error) {
      const attempts = job.opts.attempts ?? FEED_IMPORT_ATTEMPTS;
      // The message of a FeedError names the host only, never the URL or a credential.
      this.logger.warn(
        `feed run ${runId}, attempt ${job.attemptsMade + 1} of ${attempts}: ${(error as Error).message}`,
      );
      if (job.attemptsMade + 1 >= attempts) await this.feedImport.fail(runId, error);
      throw error;
    }
  }
}
