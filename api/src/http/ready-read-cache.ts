import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Environment } from '../config/environment.js';
import { ReadyCache } from '../events/ready-cache.js';
import type { Metrics } from '../metrics/metrics.js';
import { ReadyAnswer, type ReadyAnswers } from './ready-answers.js';

export interface ReadyReadOptions {
  /** The cache's name in logs and metrics. */
  name: string;
  /** Notification channels of the read models the answers are built from. */
  channels: readonly string[];
  /** Route patterns answered from the cache when the request's URL is kept. */
  routes: readonly string[];
  maxEntries: number;
  maxAgeMs: number;
  /** When what the answers show next changes by itself (a listed coupon expiring), if ever. */
  validUntil?: () => Promise<number | undefined>;
}

/**
 * Public reads answered as ready bytes: built once per request URL, kept in this process until a
 * change notification, `validUntil` or `maxAgeMs` ends them ({@link ReadyCache}), and answered
 * from then on by {@link ReadyAnswers} before routing work.
 */
export abstract class ReadyReadCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly ready: ReadyCache<ReadyAnswer>;

  protected constructor(
    environment: Environment,
    metrics: Metrics,
    answers: ReadyAnswers,
    private readonly options: ReadyReadOptions,
  ) {
    this.ready = new ReadyCache(environment.DATABASE_URL, options.channels, new Logger(options.name), {
      maxEntries: options.maxEntries,
      maxAgeMs: options.maxAgeMs,
      observe: metrics.cacheObserver(options.name),
    });
    answers.register(options.routes, (request) => this.ready.serve(request.url));
  }

  onApplicationBootstrap(): void {
    this.ready.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.ready.stop();
  }

  /** The ready answer to this exact URL, if any. */
  peek(url: string): ReadyAnswer | undefined {
    return this.ready.peek(url);
  }

  /** The bytes for `key` (what is asked, normalised), kept under the request's URL too. */
  async get(key: string, url: string, build: () => Promise<string>): Promise<Buffer> {
    const answer = await this.ready.get(
      key,
      async () => {
        const [validUntil, body] = await Promise.all([this.options.validUntil?.(), build()]);
        return { value: new ReadyAnswer(body), validUntil };
      },
      url,
    );
    return answer.body;
  }
}
