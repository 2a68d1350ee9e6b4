import { Injectable } from '@nestjs/common';
import { FeedRunAccepted, FeedRunRequested } from '@offers/api/feeds/events/feed-events';
import { type FeedImportJob, feedImportJobId } from '@offers/api/feeds/feed-import-job';
import { feedRunStatus } from '@offers/api/feeds/queries/runs';
import { Environment } from '@offers/api/infrastructure/config/environment';
import type { PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
import { QueueRegistry } from '@offers/api/infrastructure/jobs/queue-registry';
import { feedImportJobOptions, QueueName } from '@offers/api/infrastructure/jobs/queues';
import type { JobsOptions, Queue } from 'bullmq';
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
    await addFeedImportJob(
      this.queues.get(QueueName.FeedImports),
      runId,
      event.type === FeedRunAccepted.type,
      feedImportJobOptions(this.environment),
    );
  }
}

/**
 * Adds the import job of a queued run, unless a job of its id is waiting, delayed or running. A
 * job of that id already finished (completed or failed, kept a day or a month) belongs to a run of
 * another database with the same ids, such as a local database made again while Redis kept its
 * jobs: BullMQ would ignore the new job and the run would wait for ever, so the old one goes.
 * Answers whether it added the job.
 */
export async function addFeedImportJob(
  queue: Queue,
  runId: number,
  accepted: boolean,
  options: JobsOptions,
): Promise<boolean> {
  const jobId = feedImportJobId(runId, accepted);
  const existing = await queue.getJob(jobId);
  if (existing) {
    const state = await existing.getState();
    if (state !== 'completed' && state !== 'failed') return false;
    await existing.remove();
  }
  await queue.add('feed-import', { runId } satisfies FeedImportJob, { ...options, jobId });
  return true;
}
