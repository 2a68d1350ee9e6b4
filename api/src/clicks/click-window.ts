import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Environment } from '../infrastructure/config/environment.js';
import { addressDigest } from '../infrastructure/http/client-address.js';
import { CLIENT_REDIS } from '../infrastructure/platform/platform.module.js';

/** Whether a click-out is an address's first to a coupon in the window, and that first click's id. */
export interface ClickWindowClaim {
  first: boolean;
  clickId: string;
}

/**
 * One click per client address and coupon within CLICK_OUT_WINDOW_SECONDS: the first click-out's
 * id is kept in Redis (shared by every API process) and later ones in the window are told it. A
 * script that reloads the store page does not write a click, an event and an analytics count each
 * time. Without Redis every click-out is a first one: a shopper is never kept from the store, and
 * a click is never lost.
 */
@Injectable()
export class ClickWindow {
  constructor(
    @Inject(CLIENT_REDIS) private readonly redis: Redis,
    private readonly environment: Environment,
  ) {}

  private keyOf(address: string, couponId: number): string {
    return `${this.environment.QUEUE_PREFIX}:clicks:window:${couponId}:${addressDigest(this.environment.SESSION_SECRET, address)}`;
  }

  /** Claims the window for `clickId`, or answers the click that holds it. */
  async claim(address: string, couponId: number, clickId: string): Promise<ClickWindowClaim> {
    const key = this.keyOf(address, couponId);
    try {
      // SET ... NX GET answers the value already there (Redis 7), in one round trip.
      const held = await this.redis.set(
        key,
        clickId,
        'EX',
        this.environment.CLICK_OUT_WINDOW_SECONDS,
        'NX',
        'GET',
      );
      return held === null ? { first: true, clickId } : { first: false, clickId: held };
    } catch {
      return { first: true, clickId };
    }
  }

  /** Gives the window up when the click that claimed it was not recorded after all. */
  async release(address: string, couponId: number, clickId: string): Promise<void> {
    const key = this.keyOf(address, couponId);
    try {
      if ((await this.redis.get(key)) === clickId) await this.redis.del(key);
    } catch {
      // Expires by itself.
    }
  }
}
