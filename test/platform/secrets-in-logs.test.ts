import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { firstAdminSeed } from '@offers/api/demo';
import { validateEnvironment } from '@offers/api/platform';
import { Logger as PinoLogger } from 'nestjs-pino';
import { ensureSessionSecret } from '../../api/scripts/local-setup.mjs';
import { userRegistration } from '../support/accounts.js';
import { type ApiApp, startApi } from '../support/api-app.js';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';

/** No secret or personal data in the logs, in what the seed prints, or in the source. */
let test: TestEnvironment;
let api: ApiApp;
const written: string[] = [];
const originalWrites = { stdout: process.stdout.write, stderr: process.stderr.write };

beforeAll(async () => {
  test = await createTestEnvironment('secrets in logs', { LOG_LEVEL: 'info' });
  api = await startApi(test.environment);
  // Whatever reaches the process's own output (TypeORM's console logger wrote there) is kept too.
  for (const stream of ['stdout', 'stderr'] as const) {
    const original = originalWrites[stream];
    process[stream].write = ((chunk: unknown, ...rest: unknown[]) => {
      written.push(String(chunk));
      return (original as (...args: unknown[]) => boolean).call(process[stream], chunk, ...rest);
    }) as typeof process.stdout.write;
  }
});

afterAll(async () => {
  process.stdout.write = originalWrites.stdout;
  process.stderr.write = originalWrites.stderr;
  await api?.close();
  await test?.cleanup();
});

const everythingLogged = () => `${JSON.stringify(api.logs)}\n${written.join('')}`;

describe('logs', () => {
  it('hold no hash, email, mobile number or address of a duplicate registration', async () => {
    const registration = userRegistration({ address: '77 Secret Lane, Mysuru' });
    const first = await api.http.inject({
      method: 'POST',
      url: '/api/auth/users/register',
      payload: registration,
    });
    const duplicate = await api.http.inject({
      method: 'POST',
      url: '/api/auth/users/register',
      payload: registration,
    });

    expect(first.statusCode).toBe(201);
    expect(duplicate.statusCode).toBe(409);
    const logged = everythingLogged();
    // The failed statement itself is logged, so the check below looks at a real log line.
    expect(logged).toContain('Query failed');
    for (const secret of ['$argon2', registration.email, registration.mobileNumber, '77 Secret Lane']) {
      expect(logged).not.toContain(secret);
    }
  });

  it('redact passwords, tokens, emails, mobile numbers, names and client addresses in logged objects', () => {
    api.app.get(PinoLogger).warn(
      {
        body: {
          password: 'Hunter@2026',
          token: 'abc.def',
          email: 'asha@example.in',
          mobile: '9876543210',
          userName: 'Asha Rao',
        },
        user: { currentPassword: 'Old@2026', newPassword: 'New@2027' },
        request: { ip: '203.0.113.77', remoteAddress: '203.0.113.78' },
      },
      'probe',
    );
    const line = api.logs.find((entry) => JSON.stringify(entry).includes('probe'))!;
    const text = JSON.stringify(line);
    for (const secret of [
      'Hunter@2026',
      'abc.def',
      'asha@example.in',
      '9876543210',
      'Old@2026',
      'New@2027',
      'Asha Rao',
      '203.0.113.77',
      '203.0.113.78',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
  });
});

describe('the first admin seed', () => {
  it('prints a password only when it generated one', async () => {
    const given = await createTestEnvironment('seed given', { ADMIN_PASSWORD: 'Chosen@2026!' });
    const generated = await createTestEnvironment('seed generated', {
      NODE_ENV: 'production',
      SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    try {
      const withGiven = await firstAdminSeed.run(await dataSourceFor(given), given.environment);
      const withGenerated = await firstAdminSeed.run(await dataSourceFor(generated), generated.environment);

      expect(withGiven).toContain('ADMIN_PASSWORD');
      expect(withGiven).not.toContain('Chosen@2026!');
      expect(withGenerated).toMatch(/with password "[\w-]{16}" \(generated/);
    } finally {
      for (const cleanup of cleanups.splice(0)) await cleanup();
      await given.cleanup();
      await generated.cleanup();
    }
  });
});

describe('SESSION_SECRET', () => {
  it('has no value in the source: without one each development process makes its own', () => {
    const a = validateEnvironment({});
    const b = validateEnvironment({});
    expect(a.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(a.SESSION_SECRET).not.toBe(b.SESSION_SECRET);
    const source = readFileSync(
      new URL('../../api/src/infrastructure/config/environment.ts', import.meta.url),
      'utf8',
    );
    expect(source).not.toMatch(/SESSION_SECRET\s*=\s*['"`]/);
    expect(() => validateEnvironment({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' })).toThrow(
      /SESSION_SECRET must be set/,
    );
  });

  it('is written to .env by npm start on first start, and kept afterwards', () => {
    const root = mkdtempSync(join(tmpdir(), 'offers-env-'));
    const saved = process.env.SESSION_SECRET;
    try {
      delete process.env.SESSION_SECRET;
      writeFileSync(join(root, '.env'), 'PORT=3001');
      expect(ensureSessionSecret(root)).toBe(true);
      const first = readFileSync(join(root, '.env'), 'utf8');
      expect(first).toMatch(/^PORT=3001\n# .*\nSESSION_SECRET=[\w-]{43}\n$/);
      delete process.env.SESSION_SECRET;
      expect(ensureSessionSecret(root)).toBe(false);
      expect(readFileSync(join(root, '.env'), 'utf8')).toBe(first);
    } finally {
      if (saved === undefined) delete process.env.SESSION_SECRET;
      else process.env.SESSION_SECRET = saved;
      rmSync(root, { recursive: true, force: true });
    }
  });
});

async function dataSourceFor(environment: TestEnvironment) {
  const { DataSource } = await import('typeorm');
  const { dataSourceOptions } = await import('@offers/api/platform');
  const dataSource = new DataSource(dataSourceOptions(environment.environment.DATABASE_URL, { size: 2 }));
  await dataSource.initialize();
  cleanups.push(() => dataSource.destroy());
  return dataSource;
}
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});
