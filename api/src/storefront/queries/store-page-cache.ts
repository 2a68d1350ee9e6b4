import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Environment } from '../../config/environment.js';
import { ReadyCache } from '../../events/ready-cache.js';
import { Metrics } from '../../metrics/metrics.js';
import { storePageText } from './store-list.js';

/** Notified (at commit) by the store page projection whenever a page changes or goes. */
export const STORE_PAGES_CHANNEL = 'store_pages_changed';
const MAX_ENTRIES = 1_000;

/** A page's JSON text and its entity tag (browsers revalidate with it and get 304s). */
export interface ReadyPage {
  body: string;
  etag: string;
}

/**
 * Ready response bytes of the public store pages, per API process (`ReadyCache`): every entry is
 * dropped when any page changes (a PostgreSQL notification that reaches every API process); a
 * page read while a change was being notified is not kept; while the notification connection is
 * down nothing is cached.
 */
@Injectable()
export class StorePageCache implements OnApplicationBootstrap, OnApplicationShutdown {
  /** Keyed by the address asked for: the merchant id in digits, or the store's slug. */
  private readonly pages: ReadyCache<ReadyPage | null>;

  constructor(
    environment: Environment,
    @InjectDataSource() private readonly dataSource: DataSource,
    metrics: Metrics,
  ) {
    this.pages = new ReadyCache(
      environment.DATABASE_URL,
      [STORE_PAGES_CHANNEL],
      new Logger(StorePageCache.name),
      {
        maxEntries: MAX_ENTRIES,
        maxAgeMs: Number.POSITIVE_INFINITY,
        observe: metrics.cacheObserver('store-pages'),
      },
    );
  }

  onApplicationBootstrap(): void {
    this.pages.start();
  }

  /** The page when it is ready in memory (a cache hit); null for an address known to have no page. */
  peek(address: string): ReadyPage | null | undefined {
    return this.pages.serve(address);
  }

  /** The page at a merchant id (digits) or a slug, or null when there is no public page there. */
  get(address: string): Promise<ReadyPage | null> {
    return this.pages.get(address, async () => {
      const body = await storePageText(this.dataSource, address);
      const etag = body && `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      return { value: body === undefined ? null : { body, etag: etag! } };
    });
  }

  onApplicationShutdown(): Promise<void> {
    return this.pages.stop();
  }
}
