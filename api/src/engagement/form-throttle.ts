import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Environment } from '../config/environment.js';
import { CLIENT_REDIS } from '../platform/platform.module.js';
import { countInWindow, refuseOverLimit } from '../redis/window-counter.js';
import { FORM_LIMITS } from '../rules/engagement.js';

/**
 * Counts accepted public forms (newsletter, contact) per client address in fixed windows; past
 * the limit the address gets 429 until the window ends. The counters live in Redis, shared by
 * every API process; without Redis forms are accepted uncounted.
 */
@Injectable()
export class FormThrottle {
  constructor(
    @Inject(CLIENT_REDIS) private readonly redis: Redis,
    private readonly environment: Environment,
  ) {}

  async count(form: 'newsletter' | 'contact', address: string): Promise<void> {
    const { perWindow, windowSeconds } = FORM_LIMITS[form];
    const subject = `${this.environment.QUEUE_PREFIX}:forms:${form}:${address}`;
    let results: Array<[Error | null, unknown]> | null;
    try {
      results = await countInWindow(this.redis.multi(), subject, windowSeconds).exec();
    } catch {
      return;
    }
    refuseOverLimit(results, 0, perWindow, FORM_LIMITS.message);
  }
}
