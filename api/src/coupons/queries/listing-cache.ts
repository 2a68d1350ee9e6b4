import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Environment } from '../../config/environment.js';
import { ChangeListener } from '../../events/change-listener.js';
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

interface Entry {
  body: string;
  validUntil: number;
}

/**
 * Ready response bytes of the public coupon lists and home-page reads. An entry lives until the
 * lists or the home content change (a PostgreSQL notification that reaches every API process),
 * until the first listed coupon expires, or a minute, whichever comes first. While the notification connection is down nothing
 * is cached, so no process serves a stale list. Concurrent misses of one query share one build.
 */
@Injectable()
export class ListingCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ListingCache.name);
  private readonly entries = new Map<string, Entry>();
  /** The same entries under the raw request URL, for answering before any routing work. */
  private readonly byUrl = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<Entry>>();
  /** Counts changes: what was read before the latest one is not kept. */
  private generation = 0;
  private readonly changes: ChangeListener;

  constructor(
    environment: Environment,
    private readonly listings: CouponListings,
  ) {
    this.changes = new ChangeListener(
      environment.DATABASE_URL,
      [LISTINGS_CHANNEL, HOME_CONTENT_CHANNEL],
      () => this.clear(),
      this.logger,
    );
  }

  onApplicationBootstrap(): void {
    this.changes.start();
  }

  /**
   * Answers a ready read from an onRequest hook, before Nest's middleware, guard and pipes run:
   * they cost most of a request's time. The security, request-id and CORS hooks were added
   * before this one, so their headers are set; anything not ready goes on to its route.
   */
  serveReadyResponses(server: FastifyInstance): void {
    server.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.method !== 'GET' || !READY_ROUTES.has(request.routeOptions.url ?? '')) return;
      const ready = this.peek(request.url);
      if (ready !== undefined) return reply.type('application/json; charset=utf-8').send(ready);
    });
  }

  /** The ready answer to this exact URL, if any. */
  peek(url: string): string | undefined {
    const entry = this.byUrl.get(url);
    return entry && entry.validUntil > Date.now() && this.changes.listening ? entry.body : undefined;
  }

  async get(key: string, url: string, build: () => Promise<string>): Promise<string> {
    const cached = this.entries.get(key);
    if (cached && cached.validUntil > Date.now() && this.changes.listening) {
      this.byUrl.set(url, cached);
      return cached.body;
    }
    const generation = this.generation;
    let pending = this.building.get(key);
    if (!pending) {
      pending = this.build(build).finally(() => {
        if (this.building.get(key) === pending) this.building.delete(key);
      });
      this.building.set(key, pending);
    }
    const entry = await pending;
    // A build that began before a change may have read the old rows: answer it, never keep it.
    if (this.changes.listening && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.clear();
      this.entries.set(key, entry);
      this.byUrl.set(url, entry);
    }
    return entry.body;
  }

  private async build(build: () => Promise<string>): Promise<Entry> {
    const startedAt = Date.now();
    const [nextExpiry, body] = await Promise.all([this.listings.nextExpiry(), build()]);
    return { body, validUntil: Math.min(startedAt + MAX_AGE_MS, nextExpiry ?? Number.POSITIVE_INFINITY) };
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.byUrl.clear();
    this.building.clear();
  }

  onApplicationShutdown(): Promise<void> {
    return this.changes.stop();
  }
}
