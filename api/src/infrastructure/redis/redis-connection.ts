import { Redis, type RedisOptions } from 'ioredis';

/**
 * The API's and workers' connection for their own reads and writes (limits, counters, windows),
 * provided by the platform module.
 */
export const CLIENT_REDIS = Symbol('CLIENT_REDIS');

/**
 * How a connection is used decides how it behaves while Redis is away:
 * - `producer` fails a command at once, so the caller (the outbox relay) can back off and retry;
 * - `worker` waits for Redis to return (BullMQ's blocking reads need `maxRetriesPerRequest: null`);
 * - `client` retries a few times, then fails.
 */
export type RedisRole = 'producer' | 'worker' | 'client';

export interface RedisErrorReporter {
  warn(message: string): void;
}

export function createRedisConnection(url: string, role: RedisRole, reporter?: RedisErrorReporter): Redis {
  const options: RedisOptions = {
    connectionName: `offers-${role}`,
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 2000),
    ...(role === 'producer' && { enableOfflineQueue: false, maxRetriesPerRequest: 1 }),
    ...(role === 'worker' && { maxRetriesPerRequest: null }),
    ...(role === 'client' && { maxRetriesPerRequest: 3 }),
  };
  const redis = new Redis(url, options);
  // Without a listener ioredis prints every failed reconnect; report the first of each outage only.
  let reported = false;
  redis.on('error', (error: Error) => {
    if (!reported) reporter?.warn(`Redis (${role}) unavailable: ${error.message}`);
    reported = true;
  });
  redis.on('ready', () => {
    reported = false;
  });
  return redis;
}

/** Closes a connection; one still in its handshake would otherwise report the aborted handshake. */
export function closeRedisConnection(redis: Redis | undefined): void {
  if (!redis) return;
  redis.removeAllListeners('error');
  redis.on('error', () => undefined);
  redis.disconnect();
}

/**
 * Deletes every key under `prefix:` (a test file's or a benchmark's queues); answers how many.
 * Fails quietly-fast when Redis is away: retries are off.
 */
export async function deleteKeysUnder(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}
