import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

/**
 * docs/architecture.md is where an engineer learns where things are: every folder and file its
 * Layout names exists, every folder of the api and the workers is named there, and every path it
 * writes out in backticks is one the repository has.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOC = readFileSync(join(REPO_ROOT, 'docs/architecture.md'), 'utf8');

/** The Layout block's entries as repository paths: an indented name is inside the entry above it. */
function layoutPaths(doc: string): string[] {
  const start = doc.indexOf('## Layout');
  const open = doc.indexOf('```\n', start) + 4;
  const block = doc.slice(open, doc.indexOf('```', open));
  const parents: { indent: number; path: string }[] = [];
  const paths: string[] = [];
  for (const line of block.split('\n')) {
    // An entry: a name at the start of the line (after its indent), then two spaces or the end.
    const entry = /^( *)([\w.@-]+(?:\/[\w.@-]+)*\/?)(?: {2,}|$)/.exec(line);
    if (!entry || entry[1]!.length >= 20) continue;
    const indent = entry[1]!.length;
    while (parents.length > 0 && parents.at(-1)!.indent >= indent) parents.pop();
    const path = `${parents.at(-1)?.path ?? ''}${entry[2]}`;
    paths.push(path.replace(/\/$/, ''));
    if (path.endsWith('/')) parents.push({ indent, path });
  }
  return paths;
}

const folders = (path: string) =>
  readdirSync(join(REPO_ROOT, path), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${path}/${entry.name}`);

describe('docs/architecture.md', () => {
  const named = layoutPaths(DOC);

  it('names in its Layout only folders and files that exist', () => {
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((path) => !existsSync(join(REPO_ROOT, path)))).toEqual([]);
  });

  it('names every folder of the api, its infrastructure and the workers in its Layout', () => {
    const folderList = [
      ...folders('api/src').filter((path) => path !== 'api/src/infrastructure'),
      ...folders('api/src/infrastructure'),
      'api/src/infrastructure',
      ...folders('workers/src'),
    ];
    expect(folderList.filter((path) => !named.includes(path))).toEqual([]);
  });

  it('writes out only paths the repository has', () => {
    const written = [
      ...DOC.matchAll(/`((?:api|workers|web-public|web-backoffice|test|bench|docs|monitoring)\/[\w./-]+)`/g),
    ]
      .map(([, path]) => path!.replace(/[.,]$/, ''))
      // Built output and placeholders are not in the repository.
      .filter((path) => !/(^|\/)dist(\/|$)|<|\*/.test(path));
    expect(written.length).toBeGreaterThan(20);
    expect([...new Set(written)].filter((path) => !existsSync(join(REPO_ROOT, path)))).toEqual([]);
  });

  it('reads nested entries as paths (the check itself works)', () => {
    const sample = [
      '## Layout',
      '',
      '```',
      'api/src/             the api',
      '  infrastructure/    apart',
      '    config/          settings',
      '                     config/ in a description is no entry',
      '  coupons/           a feature',
      '  main.ts            the process',
      'bench/               benchmarks',
      '```',
    ].join('\n');
    expect(layoutPaths(sample)).toEqual([
      'api/src',
      'api/src/infrastructure',
      'api/src/infrastructure/config',
      'api/src/coupons',
      'api/src/main.ts',
      'bench',
    ]);
  });
});
