import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';

/**
 * A migration holds the SQL and constants it ran on its day. Importing live code (a feature's
 * queries, a rule) would let a later change of that code change what an old migration does, and
 * a database migrated today would differ from one migrated before. TypeORM and the sibling
 * migration files (the list in index.ts) are the only imports allowed.
 */
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MIGRATIONS = join(REPO_ROOT, 'api/src/infrastructure/database/migrations');

/** Every module a file names: import and export-from declarations, dynamic imports, require. */
function specifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

/** Whether a migration file may name this module. */
function allowed(file: string, specifier: string): boolean {
  if (specifier === 'typeorm' || specifier.startsWith('typeorm/')) return true;
  if (!specifier.startsWith('.')) return false;
  const target = resolve(dirname(file), specifier);
  return target.startsWith(MIGRATIONS + sep);
}

function outsideImports(file: string, source: string): string[] {
  return specifiers(source).filter((specifier) => !allowed(file, specifier));
}

describe('migrations', () => {
  it('import nothing from outside database/migrations but typeorm', () => {
    const files = readdirSync(MIGRATIONS)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(MIGRATIONS, name));
    expect(files.length).toBeGreaterThan(30);
    const found = files.flatMap((file) =>
      outsideImports(file, readFileSync(file, 'utf8')).map(
        (specifier) => `${relative(REPO_ROOT, file)}: ${specifier}`,
      ),
    );

    expect(found).toEqual([]);
  });

  it('are listed oldest first, each once, as TypeORM runs them in the list’s order', () => {
    const index = readFileSync(join(MIGRATIONS, 'index.ts'), 'utf8');
    const list = index.slice(index.indexOf('export const migrations = ['));
    const stamps = [...list.matchAll(/^\s+[A-Za-z]+(\d{13}),$/gm)].map(([, stamp]) => Number(stamp));
    expect(stamps.length).toBe(readdirSync(MIGRATIONS).filter((name) => /^\d{13}-.+\.ts$/.test(name)).length);
    expect(stamps).toEqual([...new Set(stamps)].sort((a, b) => a - b));
  });

  it('would notice an import from outside (the check itself works)', () => {
    const file = join(MIGRATIONS, '1999999999999-sample.ts');
    const outside = [
      "import { storeSlug } from '../../rules/addresses.js';",
      "import type { Row } from '../../coupons/queries/search.js';",
      "export { CATEGORIES } from '../../rules/coupons.js';",
      "export * from '../seeds/demo.js';",
      "const rules = await import('../../rules/coupons.js');",
      "import { CATEGORIES } from '@offers/api/rules';",
      "import { createHash } from 'node:crypto';",
      "import {\n  STORE_JOIN,\n  STORE_NAME_SQL,\n} from '../../storefront/queries/store-identity.js';",
    ];
    for (const sample of outside) expect(outsideImports(file, sample)).toHaveLength(1);
    const inside = [
      "import type { MigrationInterface, QueryRunner } from 'typeorm';",
      "import { Coupons1763950000000 } from './1763950000000-coupons.js';",
      "export { slugOfTheDay } from './slugs-1764350000000.js';",
      "const sql = 'SELECT 1'; // import { x } from '../../rules/coupons.js'",
    ];
    for (const sample of inside) expect(outsideImports(file, sample)).toEqual([]);
  });
});
