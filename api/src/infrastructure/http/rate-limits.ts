import { createHash } from 'node:crypto';
import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RATE_LIMITS, type RateLimit, type RateLimitClass } from '../../rules/rate-limits.js';
import { Environment } from '../config/environment.js';
import { Metrics } from '../metrics/metrics.js';
import { CLIENT_REDIS } from '../redis/redis-connection.js';
import { addressDigest, addressMatcher } from './client-address.js';

/** A 429 that says when to try again; the error filter sends its `Retry-After`. */
export class TooManyRequests extends HttpException {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super({ statusCode: HttpStatus.TOO_MANY_REQUESTS, message }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

interface Limiter {
  readonly limit: RateLimit;
  readonly name: string;
  readonly store: RateLimiterRedis;
}

/**
 * Per-address limits shared by every API process: rate-limiter-flexible counts in Redis with one
 * atomic script per request (an INCR and its expiry), and falls back to counting in the process's
 * memory while Redis is away, so limits hold (per process) without Redis and nothing waits on it.
 * The library is widely used and kept, and covers the edge cases (atomicity, the key's expiry, the
 * time left) that the fixed-window counter written here before did not.
 */
@Injectable()
export class RateLimits {
  private readonly limiters = new Map<string, Limiter>();
  private readonly exempt: (address: string) => boolean;
  private readonly secret: string;

  constructor(
    @Inject(CLIENT_REDIS) redis: Redis,
    environment: Environment,
    private readonly metrics: Metrics,
  ) {
    this.exempt = addressMatcher(environment.RATE_LIMIT_EXEMPT);
    this.secret = environment.SESSION_SECRET;
    for (const [name, limit] of Object.entries(RATE_LIMITS) as Array<[RateLimitClass, RateLimit]>) {
      const options = { points: limit.points, duration: limit.seconds };
      const store = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${environment.QUEUE_PREFIX}:limits:${name}`,
        ...options,
        insuranceLimiter: new RateLimiterMemory(options),
      });
      this.limiters.set(name, { limit, name, store });
    }
  }

  /**
   * Counts one request of `address` (the client address Fastify derived through the trusted
   * proxies) in the class; past its limit, throws TooManyRequests. Exempt addresses pass uncounted.
   */
  async consume(name: RateLimitClass, address: string): Promise<void> {
    if (this.exempt(address)) return;
    await this.take(name, addressDigest(this.secret, address));
  }

  private async take(name: RateLimitClass, key: string): Promise<void> {
    const limiter = this.limiters.get(name)!;
    try {
      await limiter.store.consume(key);
    } catch (refusal) {
      // Anything but the library's "over the limit" answer is a store failure: let it pass.
      if (!(refusal instanceof RateLimiterRes)) return;
      this.metrics.rateLimited.inc({ class: name });
      throw new TooManyRequests(limiter.limit.message, Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
    }
  }

  /**
   * Counts one request about an account (an email and role, say) in the class; Redis holds a
   * digest of the key, never the address itself. No address is exempt from these.
   */
  async consumeForAccount(name: RateLimitClass, accountKey: string): Promise<void> {
    await this.take(
      name,
      `account:${createHash('sha256').update(accountKey.toLowerCase()).digest('hex').slice(0, 32)}`,
    );
  }

  /**
   * Counts every request whose route belongs to a class, before the body is read. The route is
   * known at `onRequest` (Fastify routes first), so a request costs one map lookup when its route
   * is not limited.
   */
  install(instance: FastifyInstance): void {
    const classes = new Map<string, RateLimitClass>();
    for (const [name, limit] of Object.entries(RATE_LIMITS) as Array<[RateLimitClass, RateLimit]>) {
      for (const route of limit.routes) classes.set(route, name);
    }
    instance.addHook('onRequest', async (request, reply) => {
      // HEAD is answered by the GET route, and costs what it does.
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const name = classes.get(`${method} ${request.routeOptions.url}`);
      if (name === undefined) return;
      try {
        await this.consume(name, request.ip);
      } catch (error) {
        if (!(error instanceof TooManyRequests)) throw error;
        return sendTooManyRequests(reply, error);
      }
    });
  }
}

export function sendTooManyRequests(reply: FastifyReply, error: TooManyRequests): FastifyReply {
  return reply
    .status(HttpStatus.TOO_MANY_REQUESTS)
    .header('retry-after', String(error.retryAfterSeconds))
    .send(error.getResponse());
}
