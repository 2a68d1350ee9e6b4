import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { registerAndSignInMerchant, type Session } from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { approve, type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';
import { freePort, type RunningProcess, startNode } from '../support/processes.js';
import { holdTableLock } from '../support/table-lock.js';
import { eventually } from '../support/test-environment.js';

/**
 * Real workers processes (the product's consumers) on one marketplace whose API and relay run in
 * this process. A table lock on `coupon_listings` holds the listing projection mid-batch, so a
 * process is killed or stopped while it holds jobs.
 */
let market: Marketplace;
let merchant: Session;
const children: RunningProcess[] = [];

beforeAll(async () => {
  market = await startMarketplace('recovery', { roles: ['relay'] });
  ({ session: merchant } = await registerAndSignInMerchant(market.api.baseUrl));
});

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop('SIGKILL')));
});

afterAll(async () => {
  await market?.close();
});

interface WorkersProcess {
  process: RunningProcess;
  url: string;
  /** When its operations port first answered: the process is up. */
  upAt: number;
}

async function startWorkersProcess(settings: Record<string, string> = {}): Promise<WorkersProcess> {
  const port = await freePort();
  const process = startNode('workers/dist/src/main.js', {
    ...market.test.variables,
    WORKER_ROLES: 'events',
    WORKERS_OPERATIONS_PORT: String(port),
    ...settings,
  });
  children.push(process);
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    async () => (await send(url, { method: 'GET', url: '/health/live' })).statusCode === 200,
    `the workers process to start: ${process.output()}`,
    60_000,
  );
  return { process, url, upAt: Date.now() };
}

/** Submits and approves `count` coupons; answers their ids. */
async function approveCoupons(count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) ids.push(await submitCoupon(market, merchant));
  for (const id of ids) expect((await approve(market, id)).statusCode).toBe(200);
  return ids;
}

const activeJobs = async () => (await market.workers.domainEvents.getJobCounts('active')).active;

/** Every event so far applied by every consumer (none failed), and these coupons listed. */
async function everythingApplied(couponIds: number[]): Promise<boolean> {
  const [{ open, failed }] = await market.api.dataSource.query(
    `SELECT count(*) FILTER (WHERE processed_at IS NULL AND failed_at IS NULL)::int AS open,
            count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed FROM outbox`,
  );
  if (failed > 0) throw new Error(`${failed} events failed`);
  const [{ listed }] = await market.api.dataSource.query(
    'SELECT count(*)::int AS listed FROM coupon_listings WHERE coupon_id = ANY($1)',
    [couponIds],
  );
  return open === 0 && listed === couponIds.length;
}

const exited = (child: RunningProcess) =>
  new Promise<void>((resolve) => {
    if (child.child.exitCode !== null || child.child.signalCode !== null) resolve();
    else child.child.once('exit', () => resolve());
  });

describe('a workers process killed while it holds events', () => {
  it('has every event applied and marked within 15 s of a new process starting', async () => {
    const first = await startWorkersProcess();
    // Readers go on; the projection's writes wait.
    const release = await holdTableLock(market.test.environment.DATABASE_URL, 'coupon_listings', 'EXCLUSIVE');
    let couponIds: number[];
    try {
      couponIds = await approveCoupons(30);
      await eventually(async () => (await activeJobs()) > 0, 'the workers process to hold events');
      await first.process.stop('SIGKILL');
    } finally {
      await release();
    }
    expect(await activeJobs()).toBeGreaterThan(0); // held by a dead process

    const second = await startWorkersProcess();
    await eventually(() => everythingApplied(couponIds), 'every event to be applied', 15_000);
    expect(Date.now() - second.upAt).toBeLessThan(15_000);
    // Nothing is left in flight: a job completes just after its event is marked.
    await eventually(async () => {
      const jobs = await market.workers.domainEvents.getJobCounts('active', 'waiting', 'failed');
      if (jobs.failed > 0) throw new Error(`${jobs.failed} jobs failed`);
      return jobs.active + jobs.waiting === 0;
    }, 'every job to complete');
  });
});

describe('SIGTERM', () => {
  it('lets running events finish before the process ends', async () => {
    const worker = await startWorkersProcess({ SHUTDOWN_GRACE_MS: '20000' });
    const release = await holdTableLock(market.test.environment.DATABASE_URL, 'coupon_listings', 'EXCLUSIVE');
    let couponIds: number[] = [];
    try {
      couponIds = await approveCoupons(10);
      // Every event published and taken by the process (none waiting) before it is asked to stop:
      // a stopping process takes no new work, so an event still waiting would stay for the next one.
      await eventually(async () => {
        const [{ unpublished }] = await market.api.dataSource.query(
          'SELECT count(*)::int AS unpublished FROM outbox WHERE published_at IS NULL',
        );
        const jobs = await market.workers.domainEvents.getJobCounts('waiting', 'active');
        return unpublished === 0 && jobs.waiting === 0 && jobs.active > 0;
      }, 'the workers process to hold every event');
      worker.process.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(worker.process.child.exitCode).toBeNull(); // still finishing its events
    } finally {
      await release();
    }
    await exited(worker.process);
    // Applied by the process that was stopping: no other process ran.
    expect(await everythingApplied(couponIds)).toBe(true);
  });

  it('hands events still running at the end of the grace period back at once', async () => {
    // Locks of a minute: only a hand-back lets another process take the events within seconds.
    const slow = { JOB_LOCK_MS: '60000', JOB_STALLED_CHECK_MS: '30000' };
    const worker = await startWorkersProcess({ ...slow, SHUTDOWN_GRACE_MS: '1000' });
    const release = await holdTableLock(market.test.environment.DATABASE_URL, 'coupon_listings', 'EXCLUSIVE');
    let couponIds: number[];
    try {
      couponIds = await approveCoupons(10);
      await eventually(async () => (await activeJobs()) > 0, 'the workers process to hold events');
      const stopped = Date.now();
      worker.process.child.kill('SIGTERM');
      await eventually(
        async () => worker.process.child.exitCode !== null || worker.process.child.signalCode !== null,
        'the process to end after its grace period',
        15_000,
      );
      expect(Date.now() - stopped).toBeLessThan(15_000);
      expect(worker.process.output()).toMatch(/handed \d+ running jobs back to their queues/);
      expect(await activeJobs()).toBe(0);
    } finally {
      await release();
    }
    const next = await startWorkersProcess(slow);
    await eventually(() => everythingApplied(couponIds), 'every event to be applied', 15_000);
    expect(Date.now() - next.upAt).toBeLessThan(15_000);
  });
});
