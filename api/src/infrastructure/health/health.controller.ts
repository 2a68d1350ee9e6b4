import { Controller, Get, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../http/access.js';
import { liveness } from './operations-server.js';
import { ReadinessProbe } from './readiness.js';

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly probe: ReadinessProbe) {}

  /**
   * Database, Redis and the event pipeline reachable: `{status: 'ok'}` with 200, else `'error'`
   * with 503 (a busy pool or a lag is not a component down: readiness says those). The public port
   * says nothing more (no table, pool, queue or lag): the details are on the operations port's
   * `/health/ready`.
   */
  @Get()
  async check(@Res({ passthrough: true }) reply: FastifyReply) {
    const { checks } = await this.probe.check();
    const up =
      checks.database.up && checks.redis.up && !('error' in checks.queues) && !('error' in checks.outbox);
    if (!up) reply.status(503);
    return { status: up ? 'ok' : 'error' };
  }

  /** The process answers: for restarts, not for routing. */
  @Get('live')
  live() {
    return liveness();
  }

  /**
   * Whether this process should get traffic: `{status: 'ready'}`, or `'unavailable'` with 503 when
   * the database or Redis cannot be reached, a statement waits for a lock too long, callers queue
   * for the pools, or the event pipeline falls behind (thresholds are settings; see
   * docs/decisions.md). The reasons and checks are on the operations port only.
   */
  @Get('ready')
  async ready(@Res({ passthrough: true }) reply: FastifyReply) {
    const { status } = await this.probe.check();
    if (status !== 'ready') reply.status(503);
    return { status };
  }
}
