import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Environment } from '../../config/environment.js';
import { ReadyCache } from '../../events/ready-cache.js';
import { Metrics } from '../../metrics/metrics.js';
import { CouponListings } from './listings.js';

/** Notified (at commit) by the listing projection whenever a coupon appears in or leaves the lists. */
export const LISTINGS_CHANNEL = 'coupon_listings_changed';
/** Notified by the home-content projection; kept here so the workers need not load the content module. */
export const HOME_CONTENT_CHANNEL = 'home_content_changed';
/** Public reads answered from ready bytes; each changes only with the channels above. */
const READY_ROUTES = new Set(['/api/coupons', '/api/home', '/api/heroes', '/api/banners', '/api/flash-text']);
/** Longest an entry lives: popularity moves with every reveal, and lists follow within this. */
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 2_000;

/**
 * Ready response bytes of the public coupon lists and home-page reads. An entry lives until the
 * lists or the home content change (a PostgreSQL notification that reaches every API process),
 * until the first listed coupon expires, or a minute, whichever comes first (`ReadyCache`).
 */
@Injectable()
export class ListingCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly ready: ReadyCache<string>;

  constructor(
    environment: Environment,
    private readonly listings: CouponListings,
    metrics: Metrics,
  ) {
    this.ready = new ReadyCache(
      environment.DATABASE_URL,
      [LISTINGS_CHANNEL, HOME_CONTENT_CHANNEL],
      new Logger(ListingCache.name),
      { maxEntries: MAX_ENTRIES, maxAgeMs: MAX_AGE_MS, observe: metrics.cacheObserver('listings') },
    );
  }

  onApplicationBootstrap(): void {
    this.ready.start();
  }

  /**
   * Answers a ready read from an onRequest hook, before Nest's middleware, guard and pipes run:
   * they cost most of a request's time. The security, request-id and CORS hooks were added
   * before this one, so their headers are set; anything not ready goes on to its route.
   */
  serveReadyResponses(server: FastifyInstance): void {
    server.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'GET' || !READY_ROUTES.has(request.routeOptions.url ?? '')) return;
      const ready = this.ready.serve(request.url);
      if (ready !== undefined) return reply.type('application/json; charset=utf-8').send(ready);
    });
  }

  /** The ready answer to this exact URL, if any. */
  peek(url: string): string | undefined {
    return this.ready.peek(url);
  }

  /** The answer for `key` (a normalised query), kept under the request's URL too. */
  get(key: string, url: string, build: () => Promise<string>): Promise<string> {
    return this.ready.get(
      key,
      async () => {
        const [nextExpiry, body] = await Promise.all([this.listings.nextExpiry(), build()]);
        return { value: body, validUntil: nextExpiry };
      },
      url,
    );
  }

  onApplicationShutdown(): Promise<void> {
    return this.ready.stop();
  }
}
