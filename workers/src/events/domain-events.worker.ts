import { Injectable } from '@nestjs/common';
import { Environment } from '@offers/api/infrastructure/config/environment';
import type { PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
import { QueueName } from '@offers/api/infrastructure/jobs/queues';
import { Metrics } from '@offers/api/infrastructure/metrics/metrics';
import { type Job, UnrecoverableError } from 'bullmq';
import { InFlightJobs } from '../shutdown/in-flight-jobs.js';
import { QueueWorkerHost } from '../shutdown/queue-worker-host.js';
import { EventDispatcher } from './event-dispatcher.js';
import { EventOutcomes } from './event-outcomes.js';

/** Consumes the `domain-events` queue; BullMQ retries a failing event with exponential back-off. */
@Injectable()
export class DomainEventsWorker extends QueueWorkerHost<PublishedEvent> {
  constructor(
    environment: Environment,
    private readonly dispatcher: EventDispatcher,
    private readonly outcomes: EventOutcomes,
    inFlight: InFlightJobs,
    private readonly metrics: Metrics,
  ) {
    super(environment, inFlight, {
      queue: QueueName.DomainEvents,
      concurrency: environment.EVENT_CONCURRENCY,
      logContext: DomainEventsWorker.name,
      workerName: 'domain-events worker',
    });
  }

  protected async process(job: Job<PublishedEvent>): Promise<void> {
    // Resolves once the event's effects and its processed mark are committed (see EventOutcomes):
    // only then may the job complete.
    await this.dispatcher.dispatch(job.data);
  }

  protected override failed(job: Job<PublishedEvent> | undefined, error: Error): void {
    void this.onFailed(job, error);
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
}
