import {
  type DynamicModule,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { CqrsModule } from '@nestjs/cqrs';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { Environment } from '../config/environment.js';
import {
  dataSourceOptions,
  type EntityClasses,
  type PoolKind,
  poolLimits,
} from '../database/data-source-options.js';
import { OutboxSignal } from '../events/outbox-signal.js';
import { UnitOfWork } from '../events/unit-of-work.js';
import { RateLimits } from '../http/rate-limits.js';
import { ReadyAnswers } from '../http/ready-answers.js';
import { PRODUCER_REDIS, QueueRegistry } from '../jobs/queue-registry.js';
import { Metrics } from '../metrics/metrics.js';
import { CLIENT_REDIS, closeRedisConnection, createRedisConnection } from '../redis/redis-connection.js';
import { loggerOptions } from './logging.js';

export { CLIENT_REDIS };

export interface PlatformOptions {
  /** Where JSON logs go (standard output by default). */
  logDestination?: DestinationStream;
  /** Whose limits the main database pool takes: the API's (short) or the workers' (patient). */
  pool?: Exclude<PoolKind, 'access'>;
  /** The features' entities the main data source maps (the composition root's list). */
  entities?: EntityClasses;
}

@Injectable()
class RedisConnections implements OnApplicationShutdown {
  constructor(
    @Inject(PRODUCER_REDIS) private readonly producer: Redis,
    @Inject(CLIENT_REDIS) private readonly client: Redis,
  ) {}

  onApplicationShutdown(): void {
    closeRedisConnection(this.producer);
    closeRedisConnection(this.client);
  }
}

/**
 * What every process of the product stands on: validated settings, JSON logs, the database,
 * the command and query buses, Redis and the queues. Imported once by the API and by the workers.
 */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(environment: Environment, options: PlatformOptions = {}): DynamicModule {
    const redisLogger = new Logger('Redis');
    return {
      module: PlatformModule,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => ({ ...environment })] }),
        LoggerModule.forRoot(loggerOptions(environment, options.logDestination)),
        TypeOrmModule.forRoot({
          ...dataSourceOptions(
            environment.DATABASE_URL,
            poolLimits(environment, options.pool ?? 'api'),
            options.entities,
          ),
          autoLoadEntities: false,
        }),
        CqrsModule.forRoot(),
      ],
      providers: [
        { provide: Environment, useValue: environment },
        {
          provide: PRODUCER_REDIS,
          useFactory: () => createRedisConnection(environment.REDIS_URL, 'producer', redisLogger),
        },
        {
          provide: CLIENT_REDIS,
          useFactory: () => createRedisConnection(environment.REDIS_URL, 'client', redisLogger),
        },
        RedisConnections,
        QueueRegistry,
        OutboxSignal,
        UnitOfWork,
        ReadyAnswers,
        RateLimits,
        // One registry per application: the process's metrics, labelled api or workers.
        { provide: Metrics, useFactory: () => new Metrics(options.pool === 'workers' ? 'workers' : 'api') },
      ],
      exports: [
        Environment,
        PRODUCER_REDIS,
        CLIENT_REDIS,
        QueueRegistry,
        UnitOfWork,
        CqrsModule,
        Metrics,
        ReadyAnswers,
        RateLimits,
      ],
    };
  }
}
