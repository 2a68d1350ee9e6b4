import { Controller, Get, Inject, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  HealthCheck,
  HealthCheckService,
  HealthIndicatorService,
  TypeOrmHealthIndicator,
} from '@nestjs/terminus';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import { Public } from '../identity/sessions/access.js';
import { QueueRegistry } from '../jobs/queue-registry.js';
import { QueueName } from '../jobs/queues.js';
import { CLIENT_REDIS } from '../platform/platform.module.js';

const CHECK_TIMEOUT_MS = 1500;

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly queues: QueueRegistry,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLIENT_REDIS) private readonly redis: Redis,
  ) {}

  /** Database, Redis and the event pipeline: 200 when all are up, 503 naming what is down. */
  @Get()
  @HealthCheck()
  async check(@Res({ passthrough: true }) reply: FastifyReply) {
    try {
      return await this.runChecks();
    } catch (error) {
      // Monitors read the same report on failure, not the generic error body.
      if (!(error instanceof ServiceUnavailableException)) throw error;
      reply.status(503);
      return error.getResponse();
    }
  }

  private runChecks() {
    return this.health.check([
      () => this.database.pingCheck('database', { timeout: CHECK_TIMEOUT_MS }),
      () =>
        this.indicators
          .check('redis')
          .attempt(async () => {
            if (this.redis.status !== 'ready') throw new Error(`connection ${this.redis.status}`);
            await this.redis.ping();
          })
          .withTimeout(CHECK_TIMEOUT_MS),
      () =>
        this.indicators
          .check('queue')
          .attempt(async () => {
            const counts = await this.queues
              .get(QueueName.DomainEvents)
              .getJobCounts('waiting', 'active', 'delayed', 'failed');
            const [outbox] = await this.dataSource.query(
              `SELECT count(*)::int AS unpublished,
                      coalesce(extract(epoch FROM now() - min(occurred_at)), 0)::float AS oldest_seconds
               FROM outbox WHERE published_at IS NULL`,
            );
            return { domainEvents: counts, outbox };
          })
          .withTimeout(CHECK_TIMEOUT_MS),
    ]);
  }
}
