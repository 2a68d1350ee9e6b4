import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Environment } from '../config/environment.js';
import type { QueueName } from './queues.js';

export const PRODUCER_REDIS = Symbol('PRODUCER_REDIS');

/** Hands out one BullMQ producer per queue name, all on one Redis connection. */
@Injectable()
export class QueueRegistry implements OnApplicationShutdown {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    private readonly environment: Environment,
    @Inject(PRODUCER_REDIS) private readonly connection: Redis,
  ) {}

  get(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.environment.QUEUE_PREFIX });
      // Errors surface on the calls that fail; the queue's own event would only repeat them.
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue;
  }

  all(): Queue[] {
    return [...this.queues.values()];
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.all().map((queue) => queue.close().catch(() => undefined)));
  }
}
