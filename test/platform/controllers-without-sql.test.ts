import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

/**
 * Controllers do HTTP: they validate, call a command or a query, and shape the answer. SQL lives in
 * the features' `queries/` files (typed rows) and command handlers, so each feature has one way to
 * reach the database and a reader finds every statement of a table with one search.
 */
const SQL = [
  /\.query\s*\(/, // running a statement
  /\b(SELECT|UPDATE|DELETE)\b[\s\S]{1,200}?\b(FROM|SET|WHERE)\b/, // a statement's text
  /\bINSERT\s+INTO\b/,
];

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

function controllerFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return controllerFiles(path);
    return /controllers?\.ts$/.test(entry.name) ? [path] : [];
  });
}

describe('controllers', () => {
  it('hold no SQL: statements live in queries/ and command handlers', () => {
    const files = controllerFiles(join(REPO_ROOT, 'api/src'));
    expect(files.length).toBeGreaterThan(20);
    const withSql = files
      .filter((file) => SQL.some((pattern) => pattern.test(readFileSync(file, 'utf8'))))
      .map((file) => relative(REPO_ROOT, file));

    expect(withSql).toEqual([]);
  });

  it('would notice a statement (the check itself works)', () => {
    const samples = [
      "await this.dataSource.query('SELECT 1')",
      'const rows = `SELECT id FROM coupons WHERE merchant_id = $1`;',
      "'INSERT INTO clicks (id) VALUES ($1)'",
      'UPDATE merchants SET x = 1',
    ];
    for (const sample of samples) expect(SQL.some((pattern) => pattern.test(sample))).toBe(true);
    // Words in ordinary prose or API names are not statements.
    expect(SQL.some((pattern) => pattern.test('Select a store from the list.'))).toBe(false);
  });
});
