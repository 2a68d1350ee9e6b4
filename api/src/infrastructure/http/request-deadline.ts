import { Logger } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { busyBody, requestIdOf, sendErrorBody } from './error-filter.js';

export interface RequestDeadlines {
  /** Any request: from its arrival to its answer. */
  requestMs: number;
  /** Requests with a multipart body, which is read inside the handler and may come slowly. */
  uploadMs: number;
}

interface Pending {
  timer: NodeJS.Timeout;
  reply: FastifyReply;
  ms: number;
}

/** Requests not answered yet, in every Fastify instance of the process. */
const pending = new Map<FastifyRequest, Pending>();

/** The status a request's reply had when its deadline answered 503 in its place. */
const overtaken = new WeakMap<FastifyRequest, number>();

/**
 * The status the handler's own answer has, even when the deadline sent a 503 first (for the
 * idempotency record, which keeps what really happened).
 */
export function handlerStatus(request: FastifyRequest, reply: FastifyReply): number {
  const before = overtaken.get(request);
  return before !== undefined && reply.statusCode === 503 ? before : reply.statusCode;
}

/**
 * Every request is answered within its deadline: past it the client gets 503 with Retry-After
 * (the same answer as a database wait that ran out), never a hang. The work itself goes on until
 * its own limits end it (statement and lock timeouts); what it sends later is dropped, and a
 * command with an Idempotency-Key still records its real outcome for the retry.
 *
 * Written as hooks rather than Fastify's `handlerTimeout` because uploads need a longer deadline,
 * and whether a body is multipart is known from the request, not from the route.
 */
export function answerWithinDeadline(instance: FastifyInstance, deadlines: RequestDeadlines): void {
  const logger = new Logger('RequestDeadline');
  instance.addHook('onRequest', (request, reply, done) => {
    const multipart = /^multipart\//i.test(request.headers['content-type'] ?? '');
    const ms = multipart ? deadlines.uploadMs : deadlines.requestMs;
    const timer = setTimeout(() => expire(request, reply, ms, logger), ms);
    timer.unref();
    pending.set(request, { timer, reply, ms });
    done();
  });
  const clear = (request: FastifyRequest) => {
    clearTimeout(pending.get(request)?.timer);
    pending.delete(request);
  };
  instance.addHook('onResponse', (request, _reply, done) => {
    clear(request);
    done();
  });
  instance.addHook('onRequestAbort', (request, done) => {
    clear(request);
    done();
  });
}

/**
 * Answers every request still running as if its deadline had passed (503 with Retry-After): a
 * stop that ran past its grace period. Answers how many there were.
 */
export function answerPendingRequestsNow(): number {
  const logger = new Logger('RequestDeadline');
  const requests = [...pending.entries()];
  for (const [request, { timer, reply, ms }] of requests) {
    clearTimeout(timer);
    expire(request, reply, ms, logger);
  }
  return requests.length;
}

function expire(request: FastifyRequest, reply: FastifyReply, ms: number, logger: Logger): void {
  pending.delete(request);
  if (reply.sent) return;
  if (reply.raw.headersSent) {
    // A response already under way (a stream) cannot become a 503: end it instead.
    reply.raw.destroy();
    return;
  }
  // The route's pattern, not the address: addresses may carry tokens.
  logger.warn({ requestId: requestIdOf(request), ms, route: request.routeOptions.url }, 'Request timed out');
  overtaken.set(request, reply.statusCode);
  void sendErrorBody(reply, busyBody());
}
