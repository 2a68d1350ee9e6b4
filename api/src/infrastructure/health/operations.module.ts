import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { Environment } from '../config/environment.js';
import { ACCESS_POOL } from '../database/data-source-options.js';
import { QueueRegistry } from '../jobs/queue-registry.js';
import { QueueName } from '../jobs/queues.js';
import { Metrics } from '../metrics/metrics.js';
import { CLIENT_REDIS } from '../platform/platform.module.js';
import { OperationsServer } from './operations-server.js';
import { ReadinessProbe, readinessThresholds } from './readiness.js';

export type ProcessKind = 'api' | 'workers';
const PROCESS_KIND = Symbol('PROCESS_KIND');

/** Starts the operations port with the process and reports "not ready" as soon as it starts stopping. */
@Injectable()
export class OperationsService
  implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown
{
  private readonly logger = new Logger('Operations');
  readonly server: OperationsServer;

  constructor(
    private readonly environment: Environment,
    readonly probe: ReadinessProbe,
    @Inject(PROCESS_KIND) private readonly kind: ProcessKind,
    metrics: Metrics,
  ) {
    metrics.readinessFrom(() => probe.check());
    this.server = new OperationsServer(probe, metrics);
  }

  async onApplicationBootstrap(): Promise<void> {
    const port =
      this.kind === 'api' ? this.environment.API_OPERATIONS_PORT : this.environment.WORKERS_OPERATIONS_PORT;
    const url = await this.server.listen(port, this.environment.OPERATIONS_HOST);
    this.logger.log(`Health and metrics for monitors at ${url} (/health/live, /health/ready, /metrics)`);
  }

  beforeApplicationShutdown(): void {
    this.probe.markStopping();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server.close();
    await this.probe.close();
  }
}

/** Readiness and the operations port of a process (the API or a workers process). */
@Module({})
export class OperationsModule {
  static forRoot(kind: ProcessKind): DynamicModule {
    return {
      module: OperationsModule,
      providers: [
        { provide: PROCESS_KIND, useValue: kind },
        {
          provide: ReadinessProbe,
          inject: [
            Environment,
            CLIENT_REDIS,
            QueueRegistry,
            getDataSourceToken(),
            { token: getDataSourceToken(ACCESS_POOL), optional: true },
          ],
          useFactory: (
            environment: Environment,
            redis: Redis,
            queues: QueueRegistry,
            main: DataSource,
            access: DataSource | undefined,
          ) =>
            new ReadinessProbe({
              database: access ?? main,
              pools: { main, ...(access && { access }) },
              redis,
              queues: Object.values(QueueName).map((name) => queues.get(name)),
              thresholds: readinessThresholds(environment),
            }),
        },
        OperationsService,
      ],
      exports: [ReadinessProbe, OperationsService],
    };
  }
}
