import { afterEach, describe, expect, it } from '@jest/globals';
import type { Type } from '@nestjs/common';
import { LOCK_WAITS, OperationsService } from '@offers/api/platform';
import type { EventConsumer } from '@offers/workers/events';
import type { WorkerRole } from '@offers/workers/module';
import pg from 'pg';
import { type ApiApp, send, startApi } from '../support/api-app.js';
import { createLedgerTables, LedgerProjection, RecordEntry, TroubledConsumer } from '../support/ledger.js';
import { freePort } from '../support/processes.js';
import { holdTableLock } from '../support/table-lock.js';
import { createTestEnvironment, eventually, type TestEnvironment } from '../support/test-environment.js';
import { startWorkers, type WorkersApp } from '../support/workers-app.js';

interface Stack {
  test: TestEnvironment;
  api: ApiApp;
  workers: WorkersApp;
  /** The workers process's operations port. */
  workersUrl: string;
}

let stack: Stack | undefined;

afterEach(async () => {
  await stack?.workers.close();
  await stack?.api.close();
  await stack?.test.cleanup();
  stack = undefined;
});

async function startStack(
  name: string,
  settings: Record<string, string>,
  roles: WorkerRole[],
  consumers: Type<EventConsumer>[] = [LedgerProjection],
): Promise<Stack> {
  const test = await createTestEnvironment(name, settings);
  const api = await startApi(test.environment);
  const workers = await startWorkers(test.environment, roles, consumers);
  await createLedgerTables(workers.dataSource);
  stack = { test, api, workers, workersUrl: workers.module.get(OperationsService).server.url! };
  return stack;
}

/** The API's readiness with its reasons and checks: on its operations port, not the public one. */
const readiness = async ({ api }: Pick<Stack, 'api'>) => {
  const response = await fetch(`${api.app.get(OperationsService).server.url}/health/ready`);
  // biome-ignore lint/suspicious/noExplicitAny: the report is read loosely
  return { status: response.status, report: (await response.json()) as any };
};

/** Waits until the API's readiness names a reason matching `pattern`; answers the report. */
const untilReason = (current: Stack, pattern: RegExp) =>
  eventually(async () => {
    const { status, report } = await readiness(current);
    return status === 503 && report.reasons.some((reason: string) => pattern.test(reason)) && report;
  }, `readiness to report ${pattern}`);

describe('readiness', () => {
  it('answers live and ready on the API and on the workers operations port, with every check', async () => {
    const current = await startStack('health ready', {}, ['relay', 'events']);
    await current.workers.commands.execute(new RecordEntry(5));

    const live = await current.api.http.inject({ method: 'GET', url: '/api/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ status: 'live', uptimeSeconds: expect.any(Number) });

    const ready = await eventually(async () => {
      const answer = await readiness(current);
      const { outbox, queues } = answer.report.checks;
      // The job completes in Redis just after its event is marked processed; a job offered again
      // meanwhile (the relay's start-up pass) waits a moment before its consumers skip it.
      const events = queues['domain-events'];
      return (
        answer.status === 200 &&
        // Not yet published counts as unpublished, not unprocessed: wait for both.
        outbox.unpublished === 0 &&
        outbox.unprocessed === 0 &&
        events.active === 0 &&
        events.waiting === 0 &&
        answer
      );
    }, 'the API to be ready with the event applied and its job complete');
    expect(ready.report).toEqual({
      status: 'ready',
      reasons: [],
      notices: {},
      checks: {
        database: { up: true, latencyMs: expect.any(Number) },
        // The pipeline's own brief waits may show (a worker's processed mark waits for the rows a
        // relay pass holds), well under the threshold; a lock held too long is bounded-waits' test.
        locks: { waiting: expect.any(Number), longestWaitMs: expect.any(Number), tables: expect.any(Array) },
        pools: {
          main: { max: 20, open: expect.any(Number), idle: expect.any(Number), waiting: 0 },
          access: { max: 4, open: expect.any(Number), idle: expect.any(Number), waiting: 0 },
        },
        redis: { up: true, latencyMs: expect.any(Number) },
        outbox: {
          unpublished: 0,
          oldestUnpublishedSeconds: 0,
          unprocessed: 0,
          oldestUnprocessedSeconds: 0,
          failed: 0,
        },
        queues: {
          'cdn-purges': expect.any(Object),
          'domain-events': expect.objectContaining({ waiting: 0, active: 0, delayed: 0, failed: 0 }),
          'feed-imports': expect.any(Object),
          maintenance: expect.any(Object),
          'newsletter-campaigns': expect.any(Object),
        },
      },
    });

    expect(ready.report.checks.locks.longestWaitMs).toBeGreaterThanOrEqual(0);
    expect(ready.report.checks.locks.longestWaitMs).toBeLessThan(1000);

    // The workers process answers the same readiness on its own port (it has no API).
    const workersReady = await send(current.workersUrl, { method: 'GET', url: '/health/ready' });
    expect(workersReady.statusCode).toBe(200);
    expect(workersReady.json()).toMatchObject({
      status: 'ready',
      checks: { database: { up: true }, pools: { main: { max: 20 } }, redis: { up: true } },
    });
    expect(Object.keys(workersReady.json().checks.pools)).toEqual(['main']);
    const workersLive = await send(current.workersUrl, { method: 'GET', url: '/health/live' });
    expect(workersLive.statusCode).toBe(200);
  });

  it('measures a lock wait from when it began to the present, whenever the probe began', async () => {
    const test = await createTestEnvironment('health lock wait');
    const url = test.environment.DATABASE_URL;
    const release = await holdTableLock(url, 'outbox', 'ACCESS EXCLUSIVE');
    const probe = new pg.Client({ connectionString: url });
    const waiter = new pg.Client({ connectionString: url });
    try {
      await Promise.all([probe.connect(), waiter.connect()]);
      // The probe's transaction begins before the wait does: its now() stays at that moment.
      await probe.query('BEGIN');
      await probe.query('SELECT 1');
      const waited = waiter.query('SELECT count(*) FROM outbox').catch(() => undefined);
      await eventually(
        async () => (await probe.query(LOCK_WAITS)).rows[0].waiting > 0,
        'the reader to wait for the lock',
      );
      await new Promise((resolve) => setTimeout(resolve, 150));

      const [row] = (await probe.query(LOCK_WAITS)).rows;

      expect(row).toEqual({ waiting: 1, longest_ms: expect.any(Number), tables: ['outbox'] });
      expect(row.longest_ms).toBeGreaterThanOrEqual(150);
      expect(row.longest_ms).toBeLessThan(10_000);
      await probe.query('COMMIT');
      await release();
      await waited;
    } finally {
      await release();
      await Promise.all([probe.end(), waiter.end()]);
      await test.cleanup();
    }
  });

  it('reports events that wait too long in the queue and a queue too deep, on both processes', async () => {
    // A relay and no consumer: events reach the queue and stay there.
    const current = await startStack(
      'health lag',
      { READY_MAX_EVENT_LAG_SECONDS: '1', READY_MAX_QUEUE_DEPTH: '2' },
      ['relay'],
    );
    for (const amount of [1, 2, 3]) await current.workers.commands.execute(new RecordEntry(amount));

    const report = await untilReason(
      current,
      /^events: the oldest unprocessed event was published \d+ s ago \(3 unprocessed\)$/,
    );
    expect(report.reasons).toContain('queue domain-events: 3 jobs waiting');
    const workers = await send(current.workersUrl, { method: 'GET', url: '/health/ready' });
    expect(workers.statusCode).toBe(503);
    expect(workers.json().reasons).toEqual(report.reasons);
  });

  it('reports events the relay has not published', async () => {
    // Commands only: nothing publishes.
    const current = await startStack('health unpublished', { READY_MAX_UNPUBLISHED_AGE_SECONDS: '1' }, []);
    await current.workers.commands.execute(new RecordEntry(1));

    const report = await untilReason(
      current,
      /^outbox: the oldest unpublished event is \d+ s old \(1 unpublished\)$/,
    );
    expect(report.checks.outbox.unpublished).toBe(1);
  });

  it('reports failed events past the threshold', async () => {
    const current = await startStack(
      'health failed',
      { READY_MAX_FAILED_EVENTS: '1' },
      ['relay', 'events'],
      [TroubledConsumer],
    );
    // Entries of 13 always fail.
    await current.workers.commands.execute(new RecordEntry(13));
    await eventually(
      async () => (await readiness(current)).report.checks.outbox.failed === 1,
      'the first event to fail',
    );
    expect((await readiness(current)).status).toBe(200); // one failure is within the threshold
    await current.workers.commands.execute(new RecordEntry(13));
    await untilReason(current, /^events: 2 failed$/);
  });

  it('reports Redis as down while the database answers', async () => {
    const test = await createTestEnvironment('health redis', {
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    });
    const api = await startApi(test.environment);
    try {
      const { status, report } = await readiness({ api });
      expect(status).toBe(503);
      expect(report.checks.database.up).toBe(true);
      expect(report.checks.redis.up).toBe(false);
      expect(report.reasons).toEqual(expect.arrayContaining([expect.stringMatching(/^redis: /)]));
    } finally {
      await api.close();
      await test.cleanup();
    }
  });
});
