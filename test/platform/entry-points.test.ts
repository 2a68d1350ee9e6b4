import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

/**
 * Other packages import the api and the workers only through their named entries (the `exports`
 * of api/package.json and workers/package.json); biome's noRestrictedImports refuses deep paths.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIOME = join(REPO_ROOT, 'node_modules/.bin/biome');

/** The import-rule diagnostics biome gives a file with `text` at `path` (written, linted, removed). */
function restrictedImports(path: string, text: string): string {
  const file = join(REPO_ROOT, path);
  writeFileSync(file, text);
  try {
    const run = spawnSync(
      BIOME,
      ['lint', '--colors=off', '--only=style/noRestrictedImports', '--max-diagnostics=50', file],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
    return `${run.stdout}${run.stderr}`;
  } finally {
    rmSync(file, { force: true });
  }
}

const probe = (folder: string) => `${folder}/entry-points-probe-${process.pid}.ts`;

describe('entry points', () => {
  it('refuses a deep import of the api in the workers and the web apps', () => {
    for (const folder of ['workers/src', 'web-public/src', 'web-backoffice/src']) {
      const output = restrictedImports(
        probe(folder),
        "import { CouponListings } from '@offers/api/coupons/queries/listings';\nexport const x = CouponListings;\n",
      );
      expect(output).toContain('lint/style/noRestrictedImports');
      expect(output).toContain('@offers/api/contracts');
    }
  });

  it('refuses deep imports of the api and relative imports of the workers in tests', () => {
    const output = restrictedImports(
      probe('test/platform'),
      [
        "import { EventDispatcher } from '../../workers/src/events/event-dispatcher.js';",
        "import { rebuildProjection } from '@offers/workers/events/projection-rebuild';",
        "import { DomainEvent } from '@offers/api/infrastructure/events/domain-event';",
        'export const x = [EventDispatcher, rebuildProjection, DomainEvent];',
        '',
      ].join('\n'),
    );
    expect(output.match(/lint\/style\/noRestrictedImports/g)).toHaveLength(3);
  });

  it('lets the entries through', () => {
    const output = restrictedImports(
      probe('test/platform'),
      [
        "import { COUPON_LISTING } from '@offers/api/rules';",
        "import { DomainEvent } from '@offers/api/events';",
        "import { CouponListings } from '@offers/api/read-models';",
        "import { EventDispatcher } from '@offers/workers/events';",
        'export const x = [COUPON_LISTING, DomainEvent, CouponListings, EventDispatcher];',
        '',
      ].join('\n'),
    );
    expect(output).not.toContain('noRestrictedImports');
  });

  it.each(['api', 'workers'])('every entry of %s/package.json is a file', (pkg) => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, pkg, 'package.json'), 'utf8'));
    const entries = Object.entries(manifest.exports as Record<string, Record<string, string>>);
    expect(entries.length).toBeGreaterThan(0);
    for (const [name, conditions] of entries) {
      expect(name).not.toContain('*');
      expect(Object.keys(conditions)).toEqual(['types', '@offers/source', 'default']);
      expect(existsSync(join(REPO_ROOT, pkg, conditions.types!))).toBe(true);
      expect(conditions['@offers/source']).toBe(conditions.types);
      // What Node runs after `npm run build`: the same file's compiled twin.
      expect(conditions.default).toBe(
        conditions.types!.replace(/^\.\/src\//, './dist/src/').replace(/\.ts$/, '.js'),
      );
    }
  });
});
