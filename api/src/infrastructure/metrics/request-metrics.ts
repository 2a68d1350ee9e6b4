import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.js';

/**
 * Records every answer's duration by route pattern (never the address, which would make a series
 * per coupon id), method and status, ready answers from the onRequest hooks included.
 */
export function recordRequestDurations(instance: FastifyInstance, metrics: Metrics): void {
  instance.addHook('onResponse', (request, reply, done) => {
    metrics.requestDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
