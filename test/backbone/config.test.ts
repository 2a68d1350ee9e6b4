import { describe, expect, it } from '@jest/globals';
import { validateEnvironment } from '@offers/api/platform';
import { startNode } from '../support/processes.js';

describe('settings', () => {
  it('defaults to the local PostgreSQL and Redis of this machine', () => {
    const environment = validateEnvironment({});
    expect(environment.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/offers');
    expect(environment.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(environment.PORT).toBe(3000);
  });

  it.each([
    [
      'DATABASE_URL',
      'not a url',
      /^Configuration error: DATABASE_URL must be a URL starting with postgres:\/\//,
    ],
    ['DATABASE_URL', 'mysql://root@localhost/offers', /DATABASE_URL/],
    [
      'REDIS_URL',
      'http://127.0.0.1:6379',
      /^Configuration error: REDIS_URL must be a URL starting with redis:\/\//,
    ],
    ['PORT', 'eighty', /^Configuration error: PORT must be an integer number/],
    ['PORT', '70000', /^Configuration error: PORT must not be greater than 65535/],
    ['SESSION_TTL_HOURS', 'forever', /^Configuration error: SESSION_TTL_HOURS must be an integer number/],
    [
      'PUBLIC_URL',
      'localhost:5173',
      /^Configuration error: PUBLIC_URL must be a URL starting with http:\/\//,
    ],
    [
      'WORKER_ROLES',
      'relay,cleaner',
      /^Configuration error: WORKER_ROLES must list any of relay, events, scheduler/,
    ],
  ])('rejects %s=%s with one line naming it', (name, value, message) => {
    expect(() => validateEnvironment({ [name]: value })).toThrow(message);
  });

  it('requires the direct address of PostgreSQL behind a transaction pooler, and defaults it to DATABASE_URL otherwise', () => {
    expect(() =>
      validateEnvironment({
        DATABASE_URL: 'postgres://app@pgbouncer:6432/offers',
        DATABASE_POOLER: 'transaction',
      }),
    ).toThrow(
      /^Configuration error: DATABASE_DIRECT_URL must be a URL .*when DATABASE_POOLER is transaction/,
    );
    const pooled = validateEnvironment({
      DATABASE_URL: 'postgres://app@pgbouncer:6432/offers',
      DATABASE_DIRECT_URL: 'postgres://app@postgres:5432/offers',
      DATABASE_POOLER: 'transaction',
    });
    expect(pooled.DATABASE_DIRECT_URL).toBe('postgres://app@postgres:5432/offers');
    expect(validateEnvironment({ DATABASE_URL: 'postgres://app@postgres:5432/x' }).DATABASE_DIRECT_URL).toBe(
      'postgres://app@postgres:5432/x',
    );
  });

  it('requires a real session secret and an SMTP server in production', () => {
    expect(() => validateEnvironment({ NODE_ENV: 'production', SMTP_URL: 'smtp://mail:25' })).toThrow(
      /SESSION_SECRET must be set to a random secret of at least 32 characters/,
    );
    expect(() => validateEnvironment({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40) })).toThrow(
      /SMTP_URL must be set to a URL starting with smtp:\/\//,
    );
    const production = validateEnvironment({
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      SMTP_URL: 'smtp://mail:25',
    });
    expect(production.SMTP_URL).toBe('smtp://mail:25');
  });

  it('never prints a secret it rejects', () => {
    expect(() => validateEnvironment({ SESSION_SECRET: 'short-secret' })).toThrow(
      /^Configuration error: SESSION_SECRET must be set to a random secret of at least 32 characters$/,
    );
  });
});

describe('start-up with a malformed DATABASE_URL', () => {
  it.each(['api/dist/src/main.js', 'workers/dist/src/main.js'])(
    'stops %s with a message naming it',
    async (entry) => {
      const process = startNode(entry, { DATABASE_URL: 'postgres//127.0.0.1/offers' });
      const [code] = await new Promise<[number | null]>((resolve) =>
        process.child.on('exit', (c) => resolve([c])),
      );

      expect(code).toBe(1);
      expect(process.output().trim()).toBe(
        'Configuration error: DATABASE_URL must be a URL starting with postgres:// or postgresql:// (got "postgres//127.0.0.1/offers")',
      );
    },
  );
});
