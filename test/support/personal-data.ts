import { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';

/** Column types a person's values can hide in (bytea and numbers are not read as text). */
const READABLE_TYPES = ['text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED'];

/**
 * Where any of `values` still appears, as an auditor would look: every text, JSON and array column
 * of every table in the database, case-insensitively, except the tables named in `except`.
 * Answers `table.column: value` for each hit.
 */
export async function findPersonalValues(
  dataSource: DataSource,
  values: string[],
  except: string[] = [],
): Promise<string[]> {
  const columns: Array<{ table: string; column: string }> = await dataSource.query(
    `SELECT c.table_name AS "table", c.column_name AS "column"
     FROM information_schema.columns c
     JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.data_type = ANY($1::text[])
       AND NOT c.table_name = ANY($2::text[])
     ORDER BY 1, 2`,
    [READABLE_TYPES, except],
  );
  const hits: string[] = [];
  for (const { table, column } of columns) {
    const rows: Array<{ value: string }> = await dataSource.query(
      `SELECT v AS value FROM unnest($1::text[]) v
       WHERE EXISTS (SELECT 1 FROM "${table}" WHERE strpos(lower("${column}"::text), lower(v)) > 0)`,
      [values],
    );
    for (const row of rows) hits.push(`${table}.${column}: ${row.value}`);
  }
  return hits;
}

/**
 * Where any of `values` still appears in Redis under `prefix` (the test's keys): in a key's name or
 * in what it holds, whatever its type (BullMQ keeps a job's data, result and failure in a hash).
 * Answers `key: value` for each hit.
 */
export async function findPersonalValuesInRedis(
  redisUrl: string,
  prefix: string,
  values: string[],
): Promise<string[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const needles = values.map((value) => value.toLowerCase());
  const hits: string[] = [];
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys) {
        const held = [key, ...(await contentsOf(redis, key))].join('\n').toLowerCase();
        for (const [i, needle] of needles.entries())
          if (held.includes(needle)) hits.push(`${key}: ${values[i]}`);
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return hits;
}

async function contentsOf(redis: Redis, key: string): Promise<string[]> {
  switch (await redis.type(key)) {
    case 'string':
      return [(await redis.get(key)) ?? ''];
    case 'hash':
      return Object.entries(await redis.hgetall(key)).flat();
    case 'list':
      return redis.lrange(key, 0, -1);
    case 'set':
      return redis.smembers(key);
    case 'zset':
      return redis.zrange(key, 0, -1);
    case 'stream':
      return (await redis.xrange(key, '-', '+')).flatMap(([id, fields]) => [id, ...fields]);
    default:
      return [];
  }
}
