import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Environment } from '../config/environment.js';
import { ReadyCache } from '../events/ready-cache.js';
import type { Metrics } from '../metrics/metrics.js';
import { entityTagOf, publicReadCacheControl } from './cache-headers.js';
import { ReadyAnswer, type ReadyAnswers } from './ready-answers.js';

export interface ReadyReadOptions {
  /** The cache's name in logs and metrics. */
  name: string;
  /** Notification channels of the read models the answers are built from. */
  channels: readonly string[];
  /** Route patterns answered from the cache when the request's URL is kept. */
  routes: readonly string[];
  /**
   * The query parameters the routes read. A request URL naming only these is kept as an alias for
   * the lookup before routing; one naming any other (a campaign's `utm_*`, junk) is answered from
   * its canonical key after routing and leaves nothing behind.
   */
  parameters: readonly string[];
  maxEntries: number;
  /** Searches and answers that name nothing, kept apart (see `Built.apart`); a tenth by default. */
  maxApartEntries?: number;
  maxAgeMs: number;
  /** When what the answers show next changes by itself (a listed coupon expiring), if ever. */
  validUntil?: () => Promise<number | undefined>;
}

/**
 * Public reads answered as ready bytes: built once per canonical request (the key the controller
 * makes of its validated query), kept in this process until a change notification, `validUntil`
 * or `maxAgeMs` ends them or they are the least recently used past the bound ({@link ReadyCache}),
 * and answered from then on by {@link ReadyAnswers} before routing work, by the request URLs that
 * led to them.
 */
export abstract class ReadyReadCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly ready: ReadyCache<ReadyAnswer>;
  /** Public reads: a CDN may keep them (rules/caching.ts). */
  private readonly cacheControl: string;

  protected constructor(
    environment: Environment,
    metrics: Metrics,
    answers: ReadyAnswers,
    private readonly options: ReadyReadOptions,
  ) {
    this.ready = new ReadyCache(environment.DATABASE_DIRECT_URL, options.channels, new Logger(options.name), {
      maxEntries: options.maxEntries,
      maxApartEntries: options.maxApartEntries,
      maxAgeMs: options.maxAgeMs,
      observe: metrics.cacheObserver(options.name),
    });
    this.cacheControl = publicReadCacheControl(environment);
    answers.register(options.routes, (request) => this.ready.serve(request.url));
  }

  onApplicationBootstrap(): void {
    this.ready.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.ready.stop();
  }

  /** The ready answer to this exact URL (or canonical key), if any. */
  peek(url: string): ReadyAnswer | undefined {
    return this.ready.peek(url);
  }

  /** How many answers are kept, in the main part and apart, and how many URLs lead to them. */
  get counts(): { entries: number; apart: number; aliases: number } {
    return this.ready.counts;
  }

  /**
   * The bytes for `key` (what is asked, normalised), found by the request's URL too when it names
   * only known parameters. `apart`: the answer is kept within the bounded share (a search, an
   * answer that names nothing), decided before building or from the bytes built.
   */
  async get(
    key: string,
    url: string,
    build: () => Promise<string>,
    apart: boolean | ((body: string) => boolean) = false,
  ): Promise<Buffer> {
    const answer = await this.ready.get(
      key,
      async () => {
        const [validUntil, body] = await Promise.all([this.options.validUntil?.(), build()]);
        return {
          value: new ReadyAnswer(body, { etag: entityTagOf(body), cacheControl: this.cacheControl }),
          validUntil,
          apart: typeof apart === 'function' ? apart(body) : apart,
        };
      },
      this.namesOnlyKnownParameters(url) ? url : undefined,
    );
    return answer.body;
  }

  private namesOnlyKnownParameters(url: string): boolean {
    const query = url.indexOf('?');
    if (query === -1) return true;
    for (const name of new URLSearchParams(url.slice(query + 1)).keys())
      if (!this.options.parameters.includes(name)) return false;
    return true;
  }
}
