/** @jest-environment @happy-dom/jest-environment */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { neutraliseCell, toCsv } from '../../web-backoffice/src/common/csv';

const SOURCES = fileURLToPath(new URL('../../web-backoffice/src', import.meta.url));

describe('the back-office CSV export', () => {
  it.each(['=HYPERLINK("https://evil.example","x")', '+1+2', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])(
    'neutralises a cell starting %j',
    (value) => {
      expect(neutraliseCell(value)).toBe(`'${value}`);
    },
  );

  it('leaves ordinary cells alone and quotes what CSV needs quoted', () => {
    const csv = toCsv([
      { id: 1, email: 'asha@example.in', msg: 'Hello, "team"' },
      { id: 2, email: '=HYPERLINK("https://evil.example")', note: '-1' },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'id,email,msg,note',
      '1,asha@example.in,"Hello, ""team""",',
      `2,"'=HYPERLINK(""https://evil.example"")",,'-1`,
    ]);
  });

  it('is the exporter of every list that exports', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.tsx')) files.push(path);
      }
    };
    walk(SOURCES);
    const unsafe: string[] = [];
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      // Each react-admin <List> says exporter={false} or exporter={safeExporter} before its content.
      if (!/from 'react-admin'/.test(source) || !/\bList\b[^;]*from 'react-admin'/s.test(source)) continue;
      for (const match of source.matchAll(/<List\b/g)) {
        const rest = source.slice(match.index);
        const opening = rest.slice(0, rest.search(/<(Datagrid|SimpleList|\/List)\b/));
        if (!/exporter=\{(false|safeExporter)\}/.test(opening))
          unsafe.push(`${file}: ${opening.slice(0, 60)}`);
      }
    }
    expect(files.length).toBeGreaterThan(10);
    expect(unsafe).toEqual([]);
  });
});
