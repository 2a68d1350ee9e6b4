import { HttpException, HttpStatus } from '@nestjs/common';
import type { ChainableCommander } from 'ioredis';

/**
 * Adds to `multi` one more event of `subject` in the current fixed window of `windowSeconds`: an
 * INCR of the window's key (whose result is the count so far) and its EXPIRE. Counters in Redis
 * are shared by every API process; the windows are fixed (a burst across a window's edge may reach
 * twice the limit), which is enough to slow a script down and costs one round trip.
 */
export function countInWindow(
  multi: ChainableCommander,
  subject: string,
  windowSeconds: number,
): ChainableCommander {
  const window = Math.floor(Date.now() / (windowSeconds * 1000));
  const key = `${subject}:${window}`;
  return multi.incr(key).expire(key, windowSeconds);
}

/** 429 with `message` when the count (the result of the INCR at `index` of `results`) is past `limit`. */
export function refuseOverLimit(
  results: Array<[Error | null, unknown]> | null,
  index: number,
  limit: number,
  message: string,
): void {
  if (Number(results?.[index]?.[1]) > limit) {
    throw new HttpException({ statusCode: 429, message }, HttpStatus.TOO_MANY_REQUESTS);
  }
}
