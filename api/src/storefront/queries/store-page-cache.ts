import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CASHBACK_CHANNEL } from '../../cashback/events/cashback-events.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { ReadyCache } from '../../infrastructure/events/ready-cache.js';
import { entityTagOf, publicReadCacheControl } from '../../infrastructure/http/cache-headers.js';
import { ReadyAnswer, ReadyAnswers } from '../../infrastructure/http/ready-answers.js';
import { Metrics } from '../../infrastructure/metrics/metrics.js';
import { SLUG_MAX_LENGTH } from '../../rules/addresses.js';
import { STORE_PAGES_CHANNEL } from '../events/storefront-events.js';
import { storePageText } from './store-list.js';

const MAX_ENTRIES = 1_000;

/** Addresses of a store page: the site's, and the older client's. */
const PAGE_ROUTES = ['/api/stores/:store', '/api/MerchantPage/GetMerchantStore/:id'];
/** A merchant id, or a store's slug (`/store/<slug>` on the public site). */
export const STORE_ADDRESS = /^(?:[1-9]\d{0,8}|[a-z0-9]+(?:-[a-z0-9]+)*)$/;

/**
 * Ready response bytes of the public store pages, per API process (`ReadyCache`): every entry is
 * dropped when any page or any store's cashback changes (a PostgreSQL notification that reaches every API process); a
 * page read while a change was being notified is not kept; while the notification connection is
 * down nothing is cached.
 */
@Injectable()
export class StorePageCache implements OnApplicationBootstrap, OnApplicationShutdown {
  /** Keyed by the address asked for: the merchant id in digits, or the store's slug. */
  private readonly pages: ReadyCache<ReadyAnswer | null>;

  constructor(
    private readonly environment: Environment,
    @InjectDataSource() private readonly dataSource: DataSource,
    metrics: Metrics,
    answers: ReadyAnswers,
  ) {
    this.pages = new ReadyCache(
      environment.DATABASE_DIRECT_URL,
      [STORE_PAGES_CHANNEL, CASHBACK_CHANNEL],
      new Logger(StorePageCache.name),
      {
        maxEntries: MAX_ENTRIES,
        maxAgeMs: Number.POSITIVE_INFINITY,
        observe: metrics.cacheObserver('store-pages'),
      },
    );
    // A page ready in memory is answered before routing work, as the coupon lists are; a CDN and
    // browsers revalidate with its entity tag and get 304s.
    answers.register(PAGE_ROUTES, (request) => {
      const [address] = Object.values(request.params as Record<string, string>);
      return address && isStoreAddress(address) ? (this.pages.serve(address) ?? undefined) : undefined;
    });
  }

  onApplicationBootstrap(): void {
    this.pages.start();
  }

  /** The page at a merchant id (digits) or a slug, or null when there is no public page there. */
  get(address: string): Promise<ReadyAnswer | null> {
    return this.pages.get(address, async () => {
      const body = await storePageText(this.dataSource, address, this.environment);
      return {
        value:
          body === undefined
            ? null
            : new ReadyAnswer(body, {
                etag: entityTagOf(body),
                cacheControl: publicReadCacheControl(this.environment),
              }),
        // An address with no page is kept apart: a run of made-up addresses evicts only its like.
        apart: body === undefined,
      };
    });
  }

  onApplicationShutdown(): Promise<void> {
    return this.pages.stop();
  }
}

/** Whether `address` can name a store page (anything else has none, and is not looked up). */
export function isStoreAddress(address: string): boolean {
  return address.length <= SLUG_MAX_LENGTH && STORE_ADDRESS.test(address);
}
