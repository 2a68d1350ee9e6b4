import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FeedImportJob } from '@offers/api/feeds/feed-import-job';
import { FeedImport, staleFeedSources } from '@offers/api/feeds/import/feed-import';
import { Environment } from '@offers/api/infrastructure/config/environment';
import { ReadinessProbe } from '@offers/api/infrastructure/health/readiness';
import { FEED_IMPORT_ATTEMPTS, QueueName } from '@offers/api/infrastructure/jobs/queues';
import { Metrics } from '@offers/api/infrastructure/metrics/metrics';
import type { Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import { InFlightJobs } from '../shutdown/in-flight-jobs.js';
import { QueueWorkerHost } from '../shutdown/queue-worker-host.js';

/**
 * Runs the jobs of the `feed-imports` queue, one run at a time per process (a run is long and
 * writes much). A run that throws (a fetch that failed, a body that is not the format) is tried
 * again with the queue's backoff; after the last attempt it is marked failed. A process killed
 * mid-run leaves its job to be taken up again when its lock expires: the run resumes.
 */
@Injectable()
export class FeedImportWorker extends QueueWorkerHost<FeedImportJob> {
  constructor(
    environment: Environment,
    private readonly feedImport: FeedImport,
    inFlight: InFlightJobs,
    private readonly metrics: Metrics,
    @InjectDataSource() private readonly dataSource: DataSource,
    probe: ReadinessProbe,
  ) {
    super(environment, inFlight, {
      queue: QueueName.FeedImports,
      concurrency: 1,
      logContext: 'FeedImports',
      workerName: 'feed import worker',
    });
    probe.addNotices('feeds', () => staleFeedSources(this.dataSource));
  }

  async process(job: Job<FeedImportJob>): Promise<void> {
    const { runId } = job.data;
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const result = await this.feedImport.run(runId);
      if (result.status === 'skipped') return;
      const source = String(result.sourceId);
      this.metrics.feedRunDuration.observe({ source, status: result.status }, seconds());
      if (result.status === 'succeeded') {
        const { counts } = result;
        const outcomes = {
          added: counts.added,
          updated: counts.updated,
          unchanged: counts.unchanged,
          ended: counts.ended,
          duplicate: counts.duplicates,
          rejected: counts.rejected,
          waiting: counts.waiting,
        };
        for (const [outcome, rows] of Object.entries(outcomes))
          this.metrics.feedRows.inc({ source, outcome }, rows);
        this.metrics.feedLastSuccess.set({ source }, Date.now() / 1000);
        this.logger.log(`feed run ${runId} of source ${source} succeeded`);
      }
    } catch (error) {
      this.metrics.feedRunDuration.observe({ source: 'unknown', status: 'failed-attempt' }, seconds());
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
