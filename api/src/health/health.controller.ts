import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../identity/sessions/access.js';
import { QueueName } from '../jobs/queues.js';
import { liveness } from './operations-server.js';
import { ReadinessProbe, type ReadinessReport } from './readiness.js';

const errorOf = (check: object): string | undefined => {
  const error = (check as { error?: unknown }).error;
  return typeof error === 'string' ? error : undefined;
};

type Section = { status: 'up' | 'down'; message?: string } & Record<string, unknown>;

/**
 * The summary `/api/health` gave before readiness existed (database, Redis, queue), kept for
 * monitors that read it; it now comes from the same probe, so a busy pool no longer reads as a
 * database that is down.
 */
function summary({ checks }: ReadinessReport) {
  const sections: Record<string, Section> = {
    database: checks.database.up ? { status: 'up' } : { status: 'down', message: checks.database.error },
    redis: checks.redis.up ? { status: 'up' } : { status: 'down', message: checks.redis.error },
    queue: (() => {
      const failure = errorOf(checks.queues) ?? errorOf(checks.outbox);
      if (failure !== undefined || 'error' in checks.outbox) return { status: 'down', message: failure };
      return {
        status: 'up',
        domainEvents: (checks.queues as Record<string, Record<string, number>>)[QueueName.DomainEvents],
        outbox: {
          unpublished: checks.outbox.unpublished,
          oldest_seconds: checks.outbox.oldestUnpublishedSeconds,
        },
      };
    })(),
  };
  const up = Object.fromEntries(Object.entries(sections).filter(([, section]) => section.status === 'up'));
  const down = Object.fromEntries(
    Object.entries(sections).filter(([, section]) => section.status === 'down'),
  );
  return {
    status: Object.keys(down).length === 0 ? 'ok' : 'error',
    info: up,
    error: down,
    details: sections,
  };
}

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly probe: ReadinessProbe) {}

  /** Database, Redis and the event pipeline: 200 when all are up, 503 naming what is down. */
  @Get()
  async check(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = summary(await this.probe.check());
    // Monitors read the same report on failure, not the generic error body.
    if (report.status !== 'ok') reply.status(503);
    return report;
  }

  /** The process answers: for restarts, not for routing. */
  @Get('live')
  live() {
    return liveness();
  }

  /**
   * Whether this process should get traffic: 503 with the reasons when the database or Redis
   * cannot be reached, a statement waits for a lock too long, callers queue for the pools, or the
   * event pipeline falls behind (thresholds are settings; see docs/decisions.md).
   */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const report = await this.probe.check();
    if (report.status !== 'ready') reply.status(503);
    return report;
  }
}
