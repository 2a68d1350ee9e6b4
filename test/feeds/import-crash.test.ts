import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { FeedRunJobs } from '../../workers/src/feeds/feed-run-jobs.js';
import { registerAndSignInMerchant } from '../support/accounts.js';
import { send } from '../support/api-app.js';
import { multipart } from '../support/coupons.js';
import { mapAdvertiser } from '../support/feeds.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { freePort, type RunningProcess, startNode } from '../support/processes.js';
import { eventually } from '../support/test-environment.js';

/**
 * Feed runs in real workers processes (role `feeds`), one killed outright mid-run: the API and the
 * relay run in this process.
 */
let market: Marketplace;
const children: RunningProcess[] = [];

beforeAll(async () => {
  market = await startMarketplace('feed-import-crash', {
    roles: ['relay', 'events'],
    consumers: [FeedRunJobs],
  });
});

afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => child.stop('SIGKILL')));
});

afterAll(async () => {
  await market?.close();
});

async function startFeedsProcess(): Promise<RunningProcess> {
  const port = await freePort();
  const child = startNode('workers/dist/src/main.js', {
    ...market.test.variables,
    WORKER_ROLES: 'feeds',
    WORKERS_OPERATIONS_PORT: String(port),
  });
  children.push(child);
  await eventually(
    async () =>
      (await send(`http://127.0.0.1:${port}`, { method: 'GET', url: '/health/live' })).statusCode === 200,
    `the workers process to start: ${child.output()}`,
    60_000,
  );
  return child;
}

const ROWS = 2500;

/** An Admitad feed of `ROWS` codes and deals over two advertisers, every title its own. */
function feed(): Buffer {
  const results = [];
  for (let n = 1; n <= ROWS; n += 1) {
    results.push({
      id: 900000 + n,
      name: `Offer number ${n}`,
      description: `Offer ${n} on every order.`,
      promocode: n % 4 === 0 ? 'NOT REQUIRED' : `CRASH${n}`,
      species: n % 4 === 0 ? 'action' : 'promocode',
      date_start: '2026-01-01 00:00:00',
      date_end: null,
      status: 'active',
      campaign: { id: 7000 + (n % 2), name: `Store ${n % 2}`, site_url: 'https://www.example.in/' },
      goto_link: `https://ad.admitad.com/g/${n}/`,
      language: 'en',
    });
  }
  return Buffer.from(JSON.stringify({ results }));
}

const outcomes = async (runId: number) => {
  const [{ n }] = await market.api.dataSource.query(
    'SELECT count(*)::int AS n FROM feed_run_rows WHERE run_id = $1 AND outcome IS NOT NULL',
    [runId],
  );
  return n;
};

describe('a workers process killed mid-run', () => {
  it('leaves the run to another, which applies every row exactly once', async () => {
    // A real process started twice and a run of three lots of rows (a thousand each), on a shared machine.
    const store0 = (await registerAndSignInMerchant(market.api.baseUrl)).session.id;
    const store1 = (await registerAndSignInMerchant(market.api.baseUrl)).session.id;
    const created = await market.api.http.inject({
      method: 'POST',
      url: '/api/admin/feed-sources',
      headers: market.admin,
      payload: { name: 'Crash network', format: 'admitad-json', url: null },
    });
    const sourceId = created.json().id;
    await mapAdvertiser(market.api.dataSource, sourceId, '7000', store0);
    await mapAdvertiser(market.api.dataSource, sourceId, '7001', store1);

    const first = await startFeedsProcess();
    const form = multipart({}, { file: { name: 'feed.json', type: 'application/json', bytes: feed() } });
    const requested = await market.api.http.inject({
      method: 'POST',
      url: `/api/admin/feed-sources/${sourceId}/runs`,
      headers: { ...market.admin, ...form.headers },
      payload: form.payload,
    });
    expect(requested.statusCode).toBe(202);
    const runId = requested.json().id;

    await eventually(async () => (await outcomes(runId)) >= 100, 'the run to apply rows', 120_000);
    await first.stop('SIGKILL');
    const appliedWhenKilled = await outcomes(runId);
    expect(appliedWhenKilled).toBeLessThan(ROWS);

    await startFeedsProcess();
    const run = await eventually(
      async () => {
        const answer = (
          await market.api.http.inject({
            method: 'GET',
            url: `/api/admin/feed-runs/${runId}`,
            headers: market.admin,
          })
        ).json();
        return answer.status === 'succeeded' ? answer : undefined;
      },
      'the run to succeed in the second process',
      180_000,
    );
    expect(run).toMatchObject({ rowsRead: ROWS, added: ROWS, duplicates: 0, rejected: 0 });
    const [counts] = await market.api.dataSource.query(
      `SELECT (SELECT count(*)::int FROM feed_coupons WHERE source_id = $1) AS "feedCoupons",
              (SELECT count(*)::int FROM coupons WHERE merchant_id IN ($2, $3)) AS coupons,
              (SELECT count(*)::int FROM outbox o WHERE o.type = 'CouponSubmitted'
                 AND (o.payload->>'merchantId')::int IN ($2, $3)) AS submitted`,
      [sourceId, store0, store1],
    );
    expect(counts).toEqual({ feedCoupons: ROWS, coupons: ROWS, submitted: ROWS });
  }, 400_000);
});
