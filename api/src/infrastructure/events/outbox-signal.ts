import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Environment } from '../config/environment.js';
import { PRODUCER_REDIS } from '../jobs/queue-registry.js';

/** The Redis pub/sub channel on which the outbox relay hears of committed events. */
export function outboxSignalChannel(queuePrefix: string): string {
  return `${queuePrefix}:outbox-committed`;
}

/**
 * Tells the outbox relay, over Redis, that events were committed, so that it publishes them at once
 * rather than at its next poll. A trigger's NOTIFY did this before; but PostgreSQL holds a lock for
 * the whole database from a notifying transaction's commit until it is done, so every command that
 * recorded an event committed one at a time (no group commit, a queue of backends waiting on the
 * lock under load). A signal lost (Redis away, a process killed between its commit and the signal)
 * costs at most the relay's poll: the outbox remains the record of what is to publish.
 *
 * Signals coalesce: while one is on its way, commits only ask for one more after it, which still
 * leaves the relay a signal sent after every commit.
 */
@Injectable()
export class OutboxSignal {
  private readonly channel: string;
  private sending = false;
  private again = false;

  constructor(
    @Inject(PRODUCER_REDIS) private readonly redis: Redis,
    environment: Environment,
  ) {
    this.channel = outboxSignalChannel(environment.QUEUE_PREFIX);
  }

  /** Called after a transaction that wrote to the outbox has committed. */
  committed(): void {
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = true;
    this.redis
      .publish(this.channel, '')
      .catch(() => undefined)
      .finally(() => {
        this.sending = false;
        if (!this.again) return;
        this.again = false;
        this.committed();
      });
  }
}
