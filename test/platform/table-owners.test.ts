import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';

/**
 * One owner per table: SQL naming a table lives in its owner's folder only, as docs/architecture.md
 * lists them. Everyone else calls the owner's functions or commands, so a change to a table is a
 * change to one folder.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where application code lives: the api, the workers and the benchmarks. Tests may read any table. */
const SCANNED = ['api/src', 'workers/src', 'bench'];
/** Migrations hold the SQL of their day, whatever table it names. */
const NOT_SCANNED = ['api/src/infrastructure/database/migrations'];

/**
 * A statement's words before a table's name. Upper case only, as every statement here is written,
 * so prose ("read from users") is not taken for SQL.
 */
const TABLE_AFTER =
  /\b(?:FROM|JOIN|INTO|UPDATE|TABLE|TRUNCATE|COPY)\s+(?:ONLY\s+)?(?:IF\s+(?:NOT\s+)?EXISTS\s+)?"?([a-z_][a-z0-9_]*)"?/g;

/**
 * Statements are also put together from constants another folder exports (`STORE_JOIN`,
 * `searchVectorSql`): importing one is reaching into that folder's tables as surely as writing them.
 */
const SQL_CONSTANT = /^[A-Za-z_$][\w$]*(?:SQL|Sql|_JOIN)$/;

/**
 * What still reaches into another folder's tables, each as `file: table` (or `file: import name`):
 * none now. None may be added; were one ever listed as a known debt, paying it must take it off
 * (the test fails on an entry that no longer holds).
 */
const KNOWN: string[] = [];

/** The owners table of docs/architecture.md: table name to owning folder. */
function documentedOwners(): Map<string, string> {
  const doc = readFileSync(join(REPO_ROOT, 'docs/architecture.md'), 'utf8');
  const start = doc.indexOf('## Who owns which table');
  expect(start).toBeGreaterThan(-1);
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  const owners = new Map<string, string>();
  for (const [, table, folder] of section.matchAll(/^\|\s*`([a-z0-9_]+)`\s*\|\s*`([^`]+)`\s*\|/gm)) {
    expect(owners.has(table)).toBe(false);
    owners.set(table, folder);
  }
  return owners;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (NOT_SCANNED.includes(relative(REPO_ROOT, path))) return [];
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [path] : [];
  });
}

const within = (file: string, folder: string) => file === folder || file.startsWith(`${folder}/`);

/**
 * The folder a file counts as: `api/src/<feature>`, `api/src/infrastructure/<part>`,
 * `workers/src/<part>` or `bench`.
 */
function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'bench') return 'bench';
  return parts.slice(0, parts[2] === 'infrastructure' ? 4 : 3).join('/');
}

/** Tables named by a file's SQL, outside the tables' owners. */
function tablesOutsideOwner(file: string, text: string, owners: Map<string, string>): string[] {
  const found = new Set<string>();
  for (const [, name] of text.matchAll(TABLE_AFTER)) {
    const owner = owners.get(name);
    if (owner && !within(file, owner)) found.add(name);
  }
  return [...found].sort();
}

/** SQL constants a file imports from another folder. */
function sqlImportedAcross(file: string, text: string): string[] {
  const found: string[] = [];
  for (const [, names, from] of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'([^']+)'/g)) {
    const target = from.startsWith('.')
      ? relative(REPO_ROOT, join(REPO_ROOT, file, '..', from))
      : from.startsWith('@offers/api/')
        ? `api/src/${from.slice('@offers/api/'.length)}`
        : undefined;
    if (!target || within(target, folderOf(file))) continue;
    for (const name of names.split(',').map((part) => part.trim().split(/\s+as\s+/)[0])) {
      if (SQL_CONSTANT.test(name)) found.push(name);
    }
  }
  return found.sort();
}

describe('tables and their owners', () => {
  let environment: TestEnvironment;
  let database: DataSource;
  let owners: Map<string, string>;

  beforeAll(async () => {
    environment = await createTestEnvironment('table-owners');
    database = new DataSource({ type: 'postgres', url: environment.environment.DATABASE_URL });
    await database.initialize();
    owners = documentedOwners();
  });

  afterAll(async () => {
    await database?.destroy();
    await environment?.cleanup();
  });

  it('names an owner that exists for every table the migrations create', async () => {
    const rows: { name: string }[] = await database.query(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    );
    const tables = rows.map((row) => row.name).sort();
    expect(tables.length).toBeGreaterThan(50);
    expect(tables.filter((table) => !owners.has(table))).toEqual([]);
    // Every documented table is one the migrations make, and every owner is a folder.
    expect([...owners.keys()].filter((table) => !tables.includes(table))).toEqual([]);
    const missing = [...new Set(owners.values())].filter((folder) => {
      try {
        return !statSync(join(REPO_ROOT, folder)).isDirectory();
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });

  it('keeps SQL on a table in its owner: no new reach into another folder, and the debts shrink', () => {
    const reaches: string[] = [];
    for (const folder of SCANNED) {
      for (const path of sourceFiles(join(REPO_ROOT, folder))) {
        const file = relative(REPO_ROOT, path);
        const text = readFileSync(path, 'utf8');
        for (const table of tablesOutsideOwner(file, text, owners)) reaches.push(`${file}: ${table}`);
        for (const name of sqlImportedAcross(file, text)) reaches.push(`${file}: ${name}`);
      }
    }
    reaches.sort();
    expect(reaches.filter((reach) => !KNOWN.includes(reach))).toEqual([]);
    expect(KNOWN.filter((reach) => !reaches.includes(reach))).toEqual([]);
  });

  it('would notice a statement on another folder’s table and an imported fragment', () => {
    const sample = new Map([
      ['coupons', 'api/src/coupons'],
      ['merchants', 'api/src/identity'],
    ]);
    const statement = 'const rows = `SELECT c.id FROM coupons c JOIN merchants m ON m.id = c.merchant_id`;';
    expect(tablesOutsideOwner('api/src/coupons/queries/x.ts', statement, sample)).toEqual(['merchants']);
    expect(tablesOutsideOwner('workers/src/consumers/x.ts', 'INSERT INTO coupons (id)', sample)).toEqual([
      'coupons',
    ]);
    expect(tablesOutsideOwner('api/src/identity/x.ts', 'UPDATE merchants SET name = $1', sample)).toEqual([]);
    // Prose is not SQL.
    expect(tablesOutsideOwner('api/src/payouts/x.ts', '// the rows read from coupons', sample)).toEqual([]);
    expect(
      sqlImportedAcross(
        'api/src/coupons/queries/x.ts',
        "import { STORE_JOIN, storeName } from '../../storefront/queries/store-identity.js';",
      ),
    ).toEqual(['STORE_JOIN']);
    expect(
      sqlImportedAcross('api/src/coupons/queries/x.ts', "import { listingSql } from './listing.js';"),
    ).toEqual([]);
  });
});
