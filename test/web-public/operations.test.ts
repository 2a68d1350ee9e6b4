import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { approve, type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';
import { serveSite, untilAllListed } from '../support/web-public.js';

/**
 * The site server's operations port (liveness, readiness against the real database, Prometheus
 * metrics that follow its answers, pages sent before routing included) and its log lines (JSON,
 * one per answer, with nothing of the client's address or personal fields).
 */

let market: Marketplace;
let site: Awaited<ReturnType<typeof serveSite>>;
const routed: string[] = [];
const logLines: string[] = [];

/** The server's log as it would reach stdout: one JSON text per line. */
const logOutput = new Writable({
  write(chunk: Buffer, _encoding, done) {
    logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

beforeAll(async () => {
  market = await startMarketplace('web_public_operations');
  const { session } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Tulsi Tea' });
  const approved = await approve(market, await submitCoupon(market, session, { title: 'Tulsi tea 30% off' }));
  if (approved.statusCode !== 200) throw new Error(approved.body);
  await untilAllListed(market, 1);
  site = await serveSite(market, {
    routed: (url) => routed.push(url),
    logDestination: logOutput,
    // Successful answers are logged at debug level only (as the API's).
    settings: { LOG_LEVEL: 'debug' },
  });
}, 180_000);

afterAll(async () => {
  await site?.close();
  await market?.close();
});

const operations = (path: string) => fetch(`${site.operationsUrl}${path}`);

/** The value of a series in Prometheus' text format, or 0 when it is not there yet. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find((row) => row.startsWith(`${name}{`) && wanted.every((pair) => row.includes(pair)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/** A request's line as the site server writes it. */
interface LogLine {
  level: number;
  time: number;
  answeredBy?: string;
  responseTime?: number;
  req?: { id: string; method: string; url: string };
  res?: { statusCode: number };
}

const metrics = async () => (await operations('/metrics')).text();

/** Asks for a page until it is sent before routing (kept ready, the listener connected). */
async function untilSentReady(path: string) {
  await eventually(async () => {
    const before = routed.length;
    const response = await fetch(`${site.url}${path}`);
    await response.arrayBuffer();
    return response.status === 200 && routed.length === before;
  }, `${path} sent before routing`);
}

describe('the operations port', () => {
  it('says the process is live and ready, with what it checked', async () => {
    const live = await operations('/health/live');
    expect(live.status).toBe(200);
    expect(await live.json()).toMatchObject({ status: 'live' });

    const ready = await eventually(async () => {
      const response = await operations('/health/ready');
      return response.status === 200 && ((await response.json()) as Record<string, unknown>);
    }, 'the site server to be ready');
    expect(ready).toMatchObject({
      status: 'ready',
      reasons: [],
      checks: { database: { up: true }, listener: { connected: true }, renderer: { loaded: true } },
    });
  });

  it('counts answers by status, pages rendered by kind, and pages kept ready as cache hits', async () => {
    const before = await metrics();
    const missing = await fetch(`${site.url}/no-such-page-here`);
    expect(missing.status).toBe(404);
    await untilSentReady('/');
    const after = await metrics();

    const answers = (text: string, status: string, by: string) =>
      sample(text, 'offers_site_answers_total', { status_code: status, answered_by: by });
    expect(answers(after, '404', 'server')).toBeGreaterThan(answers(before, '404', 'server'));
    expect(answers(after, '200', 'ready')).toBeGreaterThan(answers(before, '200', 'ready'));
    // The first answer for `/` was rendered (sent by the route itself, not by Fastify's reply).
    expect(answers(after, '200', 'server')).toBeGreaterThan(answers(before, '200', 'server'));

    const renders = (text: string, page: string) =>
      sample(text, 'offers_site_page_render_duration_seconds_count', { page });
    expect(renders(after, 'notFound')).toBeGreaterThan(renders(before, 'notFound'));
    expect(renders(after, 'home')).toBeGreaterThan(renders(before, 'home'));
    expect(
      sample(after, 'offers_site_page_render_duration_seconds_bucket', { le: '+Inf', page: 'home' }),
    ).toBe(renders(after, 'home'));
    // Never a series per address.
    expect(after).not.toContain('no-such-page-here');

    const lookups = (text: string, result: string) =>
      sample(text, 'offers_cache_requests_total', { cache: 'pages', result });
    expect(lookups(after, 'hit')).toBeGreaterThan(lookups(before, 'hit'));
    expect(lookups(after, 'miss')).toBeGreaterThan(lookups(before, 'miss'));

    expect(sample(after, 'offers_ready', { process: 'web-public' })).toBe(1);
    expect(after).toMatch(/^offers_process_cpu_user_seconds_total\{process="web-public"\} /m);
  });

  it('logs each answer as a JSON line with its request id, status and time, and nothing personal', async () => {
    const clientAddress = '203.0.113.91';
    const headers = { 'x-forwarded-for': clientAddress, cookie: 'session=cookie-value-of-a-visitor' };
    const missing = await fetch(`${site.url}/nothing-at-all?token=a-reset-token-value&utm_source=mail`, {
      headers,
    });
    expect(missing.status).toBe(404);
    const signIn = await fetch(`${site.url}/api/auth/users/login`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', origin: site.url },
      body: JSON.stringify({ email: 'private.person@example.com', password: 'Not-the-password-1' }),
    });
    expect(signIn.status).toBeGreaterThanOrEqual(400);
    await untilSentReady('/');

    const entries = await eventually(async () => {
      const parsed = logLines.map((line) => JSON.parse(line) as LogLine);
      const notFound = parsed.find((entry) => entry.req?.url?.startsWith('/nothing-at-all'));
      const refused = parsed.find((entry) => entry.req?.url === '/api/auth/users/login');
      const ready = parsed.find((entry) => entry.answeredBy === 'ready' && entry.req?.url === '/');
      return notFound && refused && ready && { notFound, refused, ready };
    }, 'the answers to be logged');

    expect(entries.notFound).toMatchObject({
      level: 40,
      service: 'web-public',
      msg: 'request completed',
      req: { method: 'GET', url: '/nothing-at-all?token=[redacted]&utm_source=mail' },
      res: { statusCode: 404 },
    });
    expect(entries.refused).toMatchObject({ level: 40, res: { statusCode: signIn.status } });
    // A page kept ready is logged at debug level, with the same fields.
    expect(entries.ready).toMatchObject({ level: 20, res: { statusCode: 200 } });
    for (const entry of Object.values(entries)) {
      expect(entry.req!.id).toMatch(/^[\w.:-]{8,}$/);
      expect(typeof entry.time).toBe('number');
      expect(typeof entry.responseTime).toBe('number');
    }
    const requestIds = Object.values(entries).map((entry) => entry.req!.id);
    expect(new Set(requestIds).size).toBe(3);

    const log = logLines.join('\n');
    for (const personal of [
      clientAddress,
      'cookie-value-of-a-visitor',
      'a-reset-token-value',
      'private.person',
      'Not-the-password-1',
    ]) {
      expect(log).not.toContain(personal);
    }
    // The connection's own address neither, on any request's line.
    for (const line of logLines.filter((text) => text.includes('"req"'))) {
      expect(line).not.toContain('127.0.0.1');
      expect(line).not.toMatch(/remoteAddress|hostname|user-agent/);
    }
  });

  it('is not ready while PostgreSQL refuses its connections, and ready again once it takes them', async () => {
    const database = new URL(market.test.environment.DATABASE_URL).pathname.slice(1);
    const server = new URL(market.test.environment.DATABASE_URL);
    server.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: server.toString() });
    await admin.connect();
    try {
      // As when the database server goes away: every connection ends, and no new one is taken.
      await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS false`);
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
        database,
      ]);

      // The probe's connection and the listener's end at once, but each learns of it on its own
      // (the probe when it next asks): both reasons are named once both have.
      const unavailable = await eventually(async () => {
        const response = await operations('/health/ready');
        if (response.status !== 503) return false;
        const { reasons } = (await response.json()) as { reasons: string[] };
        return reasons.includes('change listener: not connected') && reasons;
      }, 'the site server to report itself unavailable, its listener down');
      expect(unavailable).toEqual(
        expect.arrayContaining([expect.stringMatching(/^database: /), 'change listener: not connected']),
      );
      expect(sample(await metrics(), 'offers_ready', { process: 'web-public' })).toBe(0);
      // Alive all the same: nothing to restart.
      expect((await operations('/health/live')).status).toBe(200);
    } finally {
      await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    await eventually(
      async () => (await operations('/health/ready')).status === 200,
      'the site server to be ready again',
      30_000,
    );
  }, 60_000);
});
