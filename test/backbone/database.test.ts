import { randomBytes } from 'node:crypto';
import { afterAll, expect, it } from '@jest/globals';
import { dropDatabase, migrateDatabase } from '@offers/api/infrastructure/database/database-setup';
import { migrations } from '@offers/api/infrastructure/database/migrations/index';
import pg from 'pg';

const url = `postgres://postgres@127.0.0.1:5432/offers_test_database_${randomBytes(4).toString('hex')}`;

afterAll(async () => {
  await dropDatabase(url);
});

async function query(sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

it('creates a missing database and applies every migration, once, even when run twice at the same time', async () => {
  const [first, second] = await Promise.all([migrateDatabase(url), migrateDatabase(url)]);

  expect([...first, ...second].sort()).toEqual(migrations.map((migration) => migration.name).sort());
  const applied = await query('SELECT name FROM migrations ORDER BY id');
  expect(applied.map((row) => row.name)).toEqual(migrations.map((migration) => migration.name));
  expect(await migrateDatabase(url)).toEqual([]);
});

it('keeps the relay scans on partial indexes', async () => {
  const indexes = await query("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'outbox'");
  const byName = Object.fromEntries(indexes.map((row) => [row.indexname, row.indexdef]));

  expect(byName.outbox_unpublished).toContain('WHERE (published_at IS NULL)');
  expect(byName.outbox_unprocessed).toContain('processed_at IS NULL');
});
