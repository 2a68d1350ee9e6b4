import { Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';

/**
 * The BullMQ jobs this process is running, whatever their queue. When a stop runs past its grace
 * period they are handed back to their queues (moved to waiting, their locks released), so another
 * process takes them up at once instead of when their locks expire; their consumers are idempotent.
 */
@Injectable()
export class InFlightJobs {
  private readonly running = new Map<string, { job: Job; token: string | undefined }>();

  async run<T>(job: Job, token: string | undefined, work: () => Promise<T>): Promise<T> {
    const key = `${job.queueName}:${job.id}`;
    this.running.set(key, { job, token });
    try {
      return await work();
    } finally {
      this.running.delete(key);
    }
  }

  get size(): number {
    return this.running.size;
  }

  /** Moves every job still running back to its queue; answers how many went back. */
  async handBack(): Promise<number> {
    const jobs = [...this.running.values()];
    this.running.clear();
    const moved = await Promise.allSettled(jobs.map(({ job, token }) => job.moveToWait(token)));
    return moved.filter((outcome) => outcome.status === 'fulfilled').length;
  }
}
