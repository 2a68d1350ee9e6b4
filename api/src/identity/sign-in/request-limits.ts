import { createHash } from 'node:crypto';
import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { Environment } from '../../config/environment.js';
import { CLIENT_REDIS } from '../../platform/platform.module.js';
import { PASSWORD_RESET, REGISTRATION_LIMIT } from '../../rules/accounts.js';

const LIMITS = {
  registration: REGISTRATION_LIMIT,
  'password-recovery': {
    perWindow: PASSWORD_RESET.perWindow,
    windowSeconds: PASSWORD_RESET.windowSeconds,
    message: PASSWORD_RESET.tooMany,
  },
} as const;

/**
 * Fixed-window counters of account requests in Redis, shared by every API process: registrations
 * per client address, password-recovery mails per account. Past the limit the key gets 429 until
 * its window ends. Without Redis the request goes through uncounted, like the public forms.
 */
@Injectable()
export class RequestLimits {
  constructor(
    @Inject(CLIENT_REDIS) private readonly redis: Redis,
    private readonly environment: Environment,
  ) {}

  async count(kind: keyof typeof LIMITS, key: string): Promise<void> {
    const { perWindow, windowSeconds, message } = LIMITS[kind];
    const window = Math.floor(Date.now() / (windowSeconds * 1000));
    // Keys may be email addresses: Redis holds a digest, not the address.
    const name = createHash('sha256').update(key.toLowerCase()).digest('hex').slice(0, 32);
    const redisKey = `${this.environment.QUEUE_PREFIX}:limits:${kind}:${name}:${window}`;
    let results: Array<[Error | null, unknown]> | null;
    try {
      results = await this.redis.multi().incr(redisKey).expire(redisKey, windowSeconds).exec();
    } catch {
      return;
    }
    if (Number(results?.[0]?.[1]) > perWindow) {
      throw new HttpException({ statusCode: 429, message }, HttpStatus.TOO_MANY_REQUESTS);
    }
  }
}
