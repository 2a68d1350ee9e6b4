import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Environment } from '../../config/environment.js';
import { ChangeListener } from '../../events/change-listener.js';
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
 * Ready response bytes of the public store pages, per API process. Every entry is dropped when any
 * page changes (a PostgreSQL notification that reaches every API process); a page read while a
 * change was being notified is not kept, so no process keeps an older page than the read model.
 * While the notification connection is down nothing is cached.
 */
@Injectable()
export class StorePageCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(StorePageCache.name);
  /** Keyed by the address asked for: the merchant id in digits, or the store's slug. */
  private readonly pages = new Map<string, ReadyPage | null>();
  /** Counts notifications: a read that started in an older generation is not kept. */
  private generation = 0;
  private readonly changes: ChangeListener;

  constructor(
    environment: Environment,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.changes = new ChangeListener(
      environment.DATABASE_URL,
      [STORE_PAGES_CHANNEL],
      () => this.clear(),
      this.logger,
    );
  }

  onApplicationBootstrap(): void {
    this.changes.start();
  }

  /** The page when it is ready in memory; null for a store known to have no page. */
  peek(address: string): ReadyPage | null | undefined {
    return this.changes.listening ? this.pages.get(address) : undefined;
  }

  /** The page at a merchant id (digits) or a slug, or null when there is no public page there. */
  async get(address: string): Promise<ReadyPage | null> {
    const ready = this.peek(address);
    if (ready !== undefined) return ready;
    const generation = this.generation;
    const body = await storePageText(this.dataSource, address);
    const page: ReadyPage | null =
      body === undefined
        ? null
        : { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    if (this.changes.listening && generation === this.generation) {
      if (this.pages.size >= MAX_ENTRIES) this.pages.clear();
      this.pages.set(address, page);
    }
    return page;
  }

  private clear(): void {
    this.generation += 1;
    this.pages.clear();
  }

  onApplicationShutdown(): Promise<void> {
    return this.changes.stop();
  }
}
