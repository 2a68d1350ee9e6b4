import { createHash } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { Environment } from '../../config/environment.js';

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
  private readonly pages = new Map<number, ReadyPage | null>();
  /** Counts notifications: a read that started in an older generation is not kept. */
  private generation = 0;
  private listener?: pg.Client;
  private listening = false;
  private stopped = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly environment: Environment,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    void this.listen();
  }

  /** The page when it is ready in memory; null for a store known to have no page. */
  peek(merchantId: number): ReadyPage | null | undefined {
    return this.listening ? this.pages.get(merchantId) : undefined;
  }

  /** The page, or null when the merchant has no public page. */
  async get(merchantId: number): Promise<ReadyPage | null> {
    const ready = this.peek(merchantId);
    if (ready !== undefined) return ready;
    const generation = this.generation;
    const [row] = await this.dataSource.query(
      'SELECT document::text AS body FROM store_pages WHERE merchant_id = $1',
      [merchantId],
    );
    const page: ReadyPage | null = row
      ? {
          body: row.body,
          etag: `"${createHash('sha256').update(row.body).digest('base64url').slice(0, 27)}"`,
        }
      : null;
    if (this.listening && generation === this.generation) {
      if (this.pages.size >= MAX_ENTRIES) this.pages.clear();
      this.pages.set(merchantId, page);
    }
    return page;
  }

  private clear(): void {
    this.generation += 1;
    this.pages.clear();
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.environment.DATABASE_URL });
    const reconnect = () => {
      if (this.stopped) return;
      this.listening = false;
      this.clear();
      client.removeAllListeners();
      client.end().catch(() => undefined);
      if (!this.stopped) this.retry = setTimeout(() => void this.listen(), 1000);
    };
    client.on('error', reconnect);
    client.on('notification', () => this.clear());
    try {
      // Known before connecting, so a shutdown meanwhile ends this client too.
      this.listener = client;
      await client.connect();
      await client.query(`LISTEN ${STORE_PAGES_CHANNEL}`);
      if (this.stopped) return;
      this.clear();
      this.listening = true;
    } catch (error) {
      this.logger.warn(
        `Store page cache off until PostgreSQL notifications return: ${(error as Error).message}`,
      );
      reconnect();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.listening = false;
    await this.listener?.end().catch(() => undefined);
  }
}
