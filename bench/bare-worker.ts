/**
 * The consuming side of the bare BullMQ reference, started by bench/events.ts in a process of its
 * own: a worker with a no-op processor on the bench queue, at EVENT_CONCURRENCY.
 *
 * Settings: REDIS_URL, QUEUE_PREFIX, EVENT_CONCURRENCY. Reports, per completed job, the times
 * BullMQ recorded on it: `timestamp` (set by the producer when it built the job), `processedOn`
 * and `finishedOn` (both set by this worker), all from `Date.now()` of the process that set them.
 */
import 'reflect-metadata';
import { validateEnvironment } from '@offers/api/infrastructure/config/environment';
import {
  closeRedisConnection,
  createRedisConnection,
} from '@offers/api/infrastructure/redis/redis-connection';
import { type Job, Worker } from 'bullmq';
import { exitUnlessStartedByBench, serveBench } from './processes.js';
import { BARE_QUEUE, type CompletedJob, measureProcess } from './shared.js';

exitUnlessStartedByBench();
const environment = validateEnvironment(process.env);
const connection = createRedisConnection(environment.REDIS_URL, 'worker', console);
const worker = new Worker(BARE_QUEUE, async () => undefined, {
  connection,
  prefix: environment.QUEUE_PREFIX,
  concurrency: environment.EVENT_CONCURRENCY,
});
const completed: CompletedJob[] = [];
worker.on('completed', (job: Job) => {
  completed.push([job.id!, job.timestamp, job.processedOn!, job.finishedOn!]);
});
worker.on('failed', (job, error) => console.error(`bare job ${job?.id} failed: ${error.message}`));
worker.on('error', (error) => console.error(`bare worker: ${error.message}`));
await worker.waitUntilReady();

serveBench({
  progress: () => completed.length,
  measure: () => measureProcess(),
  report: () => completed,
  close: async () => {
    await worker.close();
    closeRedisConnection(connection);
  },
});
