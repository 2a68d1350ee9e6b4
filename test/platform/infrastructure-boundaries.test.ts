import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

/**
 * The infrastructure imports no feature: a feature registers what the infrastructure needs (its
 * entities through the composition roots, the routes that keep their raw body, the admin gate)
 * and only the composition roots (app.module.ts, main.ts, the workers' module) import both.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const INFRASTRUCTURE = 'api/src/infrastructure';
/** What the infrastructure may import from api/src besides itself: the shared rules. */
const ALLOWED = [INFRASTRUCTURE, 'api/src/rules'];

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"\n]+)['"]/g;

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** The file a specifier of `file` names (`x.js` and `x` read as `x.ts`), if it is in the api. */
function targetOf(file: string, specifier: string): string | undefined {
  const path = specifier.startsWith('.')
    ? posix.normalize(posix.join(posix.dirname(file), specifier))
    : specifier.startsWith('@offers/api/')
      ? `api/src/${specifier.slice('@offers/api/'.length)}`
      : undefined;
  return (
    path && (/\.js$/.test(path) ? path.replace(/\.js$/, '.ts') : /\.tsx?$/.test(path) ? path : `${path}.ts`)
  );
}

/** The files of api/src outside the infrastructure and the rules that a file imports. */
function featureImports(file: string, text: string): string[] {
  const found = new Set<string>();
  for (const [, specifier] of text.matchAll(SPECIFIER)) {
    const target = targetOf(file, specifier!);
    if (target && within(target, 'api/src') && !ALLOWED.some((folder) => within(target, folder))) {
      found.add(target);
    }
  }
  return [...found].sort();
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(REPO_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [path] : [];
  });
}

describe('the infrastructure and the features', () => {
  it('imports no feature from api/src/infrastructure', () => {
    const files = sourceFiles(INFRASTRUCTURE);
    expect(files.length).toBeGreaterThan(50);
    const reaches = files
      .flatMap((file) =>
        featureImports(file, readFileSync(join(REPO_ROOT, file), 'utf8')).map(
          (target) => `${file}: ${target}`,
        ),
      )
      .sort();
    expect(reaches).toEqual([]);
  });

  it('would notice a feature imported relatively, by package name or lazily', () => {
    const file = `${INFRASTRUCTURE}/http/x.ts`;
    const text = [
      "import { Public } from '../../identity/sessions/access.js';",
      "import type { Coupon } from '@offers/api/coupons/entities/coupon.entity';",
      "const media = await import('../../media/images.js');",
      "export { keepRawBody } from '../../earnings/raw-body.js';",
      // Allowed: the infrastructure itself, the shared rules, packages.
      "import { Metrics } from '../metrics/metrics.js';",
      "import { FEED_POSTBACK } from '../../rules/feeds.js';",
      "import { Module } from '@nestjs/common';",
    ].join('\n');
    expect(featureImports(file, text)).toEqual([
      'api/src/coupons/entities/coupon.entity.ts',
      'api/src/earnings/raw-body.ts',
      'api/src/identity/sessions/access.ts',
      'api/src/media/images.ts',
    ]);
  });
});
