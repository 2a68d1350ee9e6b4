import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { Environment } from '../../config/environment.js';

/** Notified (at commit) by the listing projection whenever what the lists show changes. */
export const LISTINGS_CHANNEL = 'coupon_listings_changed';
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 2_000;

interface Entry {
  body: string;
  validUntil: number;
}

/**
 * Ready response bytes of the public coupon lists, per query. An entry lives until the listing
 * changes (a PostgreSQL notification that reaches every API process), until the first listed
 * coupon expires, or a minute, whichever comes first. While the notification connection is down
 * nothing is cached, so no process serves a stale list.
 */
@Injectable()
export class ListingCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ListingCache.name);
  private readonly entries = new Map<string, Entry>();
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

  async get(key: string, build: () => Promise<string>): Promise<string> {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.validUntil > now && this.listening) return cached.body;
    const [[{ next_expiry }], body] = await Promise.all([
      this.dataSource.query(
        'SELECT extract(epoch FROM min(expires_at)) * 1000 AS next_expiry FROM coupon_listings WHERE expires_at > now()',
      ),
      build(),
    ]);
    if (this.listening) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, {
        body,
        validUntil: Math.min(now + MAX_AGE_MS, Number(next_expiry ?? Infinity)),
      });
    }
    return body;
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.environment.DATABASE_URL });
    const reconnect = () => {
      this.listening = false;
      this.entries.clear();
      client.removeAllListeners();
      client.end().catch(() => undefined);
      if (!this.stopped) this.retry = setTimeout(() => void this.listen(), 1000);
    };
    client.on('error', reconnect);
    client.on('notification', () => this.entries.clear());
    try {
      await client.connect();
      await client.query(`LISTEN ${LISTINGS_CHANNEL}`);
      this.listener = client;
      this.entries.clear();
      this.listening = true;
    } catch (error) {
      this.logger.warn(
        `Listing cache off until PostgreSQL notifications return: ${(error as Error).message}`,
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
