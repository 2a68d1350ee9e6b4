import { Injectable } from '@nestjs/common';
import { Environment } from '@offers/api/config/environment';
import type { PublishedEvent } from '@offers/api/events/domain-event';
import { FeedRunAccepted, FeedRunRequested } from '@offers/api/feeds/events/feed-events';
import { type FeedImportJob, feedImportJobId } from '@offers/api/feeds/feed-import-job';
import { feedRunStatus } from '@offers/api/feeds/queries/runs';
import { QueueRegistry } from '@offers/api/jobs/queue-registry';
import { feedImportJobOptions, QueueName } from '@offers/api/jobs/queues';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';

/**
 * Adds the import job of a run that was requested or accepted, once the run is committed: the
 * run's row and its event are written together, and the relay delivers the event until this
 * consumer has added the job, so a run is never left without one when the API or Redis dies.
 * The job id names the run, so a redelivered event adds nothing new.
 */
@Injectable()
export class FeedRunJobs implements EventConsumer {
  readonly name = 'feed-run-jobs';
  readonly handles = [FeedRunRequested.type, FeedRunAccepted.type];

  constructor(
    private readonly queues: QueueRegistry,
    private readonly environment: Environment,
  ) {}

  async handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    const runId = Number(event.aggregateId);
    // A run discarded (or already taken up) before its event arrived needs no job.
    if ((await feedRunStatus(manager, runId)) !== 'queued') return;
    // Added before the inbox commits: if the commit fails, the retry adds the same job id again.
    await this.queues.get(QueueName.FeedImports).add('feed-import', { runId } satisfies FeedImportJob, {
      ...feedImportJobOptions(this.environment),
      jobId: feedImportJobId(runId, event.type === FeedRunAccepted.type),
    });
  }
}
