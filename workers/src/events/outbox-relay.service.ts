import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Environment } from '@offers/api/infrastructure/config/environment';
import { outboxSignalChannel } from '@offers/api/infrastructure/events/outbox-signal';
import { QueueRegistry } from '@offers/api/infrastructure/jobs/queue-registry';
import { QueueName } from '@offers/api/infrastructure/jobs/queues';
import {
  closeRedisConnection,
  createRedisConnection,
} from '@offers/api/infrastructure/redis/redis-connection';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { OutboxPublisher, OutboxRelay } from './outbox-relay.js';

export function outboxPublisher(dataSource: DataSource, queues: QueueRegistry, environment: Environment) {
  return new OutboxPublisher(dataSource, queues.get(QueueName.DomainEvents), {
    attempts: environment.EVENT_ATTEMPTS,
    backoffMs: environment.EVENT_BACKOFF_MS,
  });
}

/** Runs the outbox relay for the life of the process. */
@Injectable()
export class OutboxRelayService
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('OutboxRelay');
  private relay?: OutboxRelay;
  private connection?: Redis;
  private subscriber?: Redis;

  constructor(
    private readonly environment: Environment,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queues: QueueRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createRedisConnection(this.environment.REDIS_URL, 'client', this.logger);
    // `worker`: its subscription waits for Redis however long it is away.
    this.subscriber = createRedisConnection(this.environment.REDIS_URL, 'worker', this.logger);
    this.relay = new OutboxRelay(
      outboxPublisher(this.dataSource, this.queues, this.environment),
      this.connection,
      this.subscriber,
      `${this.environment.QUEUE_PREFIX}:outbox-relay:epoch`,
      this.logger,
      { signalChannel: outboxSignalChannel(this.environment.QUEUE_PREFIX) },
    );
    this.relay.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.relay?.stop();
  }

  onApplicationShutdown(): void {
    closeRedisConnection(this.connection);
    closeRedisConnection(this.subscriber);
  }
}
