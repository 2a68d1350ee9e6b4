/**
 * Slot capacity benchmark: a burst of admin approvals into one slot through the real API, next to
 * the same burst spread over one slot per coupon (nothing shared: the reference), then a burst
 * into a slot with room for half of it.
 *
 *   npm run bench:slots [-- --approvals N] [-- --concurrency C] [-- --rounds R] [-- --workers]
 *
 * Works in a database and a Redis prefix of its own, both removed at the end. See bench/README.md.
 */
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DEVELOPMENT_ADMIN_PASSWORD,
  firstAdminSeed,
  seedMerchantsInBulk,
  seedPendingCouponsInBulk,
  seedSlotsInBulk,
} from '@offers/api/demo';
import { dataSourceOptions, migrateDatabase } from '@offers/api/platform';
import { liveCouponsInSlot } from '@offers/api/read-models';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { API_NODE_OPTIONS } from '../api/scripts/node-options.mjs';
import { freePort } from '../test/support/processes.js';
import {
  measureProcessCpu,
  REPOSITORY,
  ServerProcess,
  stopServerProcesses,
  waitForHealthy,
} from './listing/children.js';
import { statements } from './listing/seed.js';
import {
  benchEnvironment,
  cleanUpOnce,
  environmentVariables,
  measureMachine,
  positiveOption,
  redisReachable,
} from './shared.js';

const API_START_TIMEOUT_MS = 60_000;
const WARMUP_APPROVALS = 100;
/** The target: approvals a second into one slot on this machine. */
const TARGET_PER_SECOND = 200;

interface Settings {
  approvals: number;
  concurrency: number;
  workers: boolean;
  rounds: number;
}

function readArguments(): Settings {
  const { values } = parseArgs({
    options: {
      approvals: { type: 'string' },
      concurrency: { type: 'string' },
      workers: { type: 'boolean' },
      rounds: { type: 'string' },
    },
    strict: true,
  });
  return {
    approvals: positiveOption('approvals', values.approvals, 400),
    concurrency: positiveOption('concurrency', values.concurrency, 200),
    workers: values.workers ?? false,
    rounds: positiveOption('rounds', values.rounds, 3),
  };
}

// ---------------------------------------------------------------------------------------------
// Seeding: one merchant, pending coupons, the slots, the first admin

/** `count` free slots `<name> 1` … `<name> <count>`, each with room for `capacity`; their ids in order. */
async function insertSlots(
  client: pg.Client,
  name: string,
  count: number,
  capacity: number,
): Promise<number[]> {
  return seedSlotsInBulk(
    statements(client),
    Array.from({ length: count }, (_, index) => ({
      name: `${name} ${index + 1}`,
      kind: 'free' as const,
      capacity,
    })),
  );
}

async function insertPendingCoupons(client: pg.Client, merchantId: number, slotId: number, count: number) {
  return seedPendingCouponsInBulk(statements(client), { merchantId, slotId, count });
}

interface Seeded {
  merchantId: number;
  firstSlot: number;
}

async function seed(client: pg.Client): Promise<Seeded> {
  const [merchant] = await seedMerchantsInBulk(statements(client), {
    first: 1,
    count: 1,
    merchantName: 'Bench Merchant',
    brandName: 'Bench',
    address: '1 Bench Road',
    email: 'bench@bench.localhost',
    mobile: '9{n9}',
    siteUrl: 'https://bench.localhost',
    userName: 'benchmerchant',
    referralCode: 'BENCH001',
    slug: null,
  });
  const [firstSlot] = await insertSlots(client, 'Warm-up', 1, 100_000);
  return { merchantId: merchant!.id, firstSlot: firstSlot! };
}

// ---------------------------------------------------------------------------------------------
// Bursts

interface Answer {
  status: number;
  sentAt: number;
  answeredAt: number;
  /** When the approval was stamped inside its transaction (the record's approvedAt). */
  approvedAt?: number;
}

interface Burst {
  label: string;
  answers: Answer[];
  elapsedMs: number;
  machineBusy: number;
  apiCpu: number | undefined;
}

function post(agent: Agent, baseUrl: string, path: string, headers: Record<string, string>, body: unknown) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = httpRequest(
      new URL(path, baseUrl),
      {
        method: 'POST',
        agent,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk) => {
          text += chunk;
        });
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** Sends every approval, `concurrency` in flight, as fast as answers come back. */
async function burst(
  label: string,
  api: { baseUrl: string; admin: Record<string, string>; pid: number | undefined },
  approvals: Array<{ couponId: number; slotId: number }>,
  concurrency: number,
): Promise<Burst> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const answers: Answer[] = [];
  const machine = measureMachine();
  const apiCpu = measureProcessCpu(api.pid);
  const started = performance.timeOrigin + performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, approvals.length) }, async () => {
      while (next < approvals.length) {
        const { couponId, slotId } = approvals[next]!;
        next += 1;
        const sentAt = Date.now();
        const answer = await post(agent, api.baseUrl, `/api/admin/coupons/${couponId}/approve`, api.admin, {
          slotId,
        });
        const answeredAt = Date.now();
        const approvedAt = answer.status === 200 ? Date.parse(JSON.parse(answer.body).approvedAt) : undefined;
        answers.push({ status: answer.status, sentAt, answeredAt, approvedAt });
      }
    }),
  );
  const elapsedMs = performance.timeOrigin + performance.now() - started;
  agent.destroy();
  return { label, answers, elapsedMs, machineBusy: machine().busy, apiCpu: apiCpu() };
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(0)} ms`);
const percent = (value: number | undefined) =>
  value === undefined || Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(0)}%`;

function summary(result: Burst) {
  const approved = result.answers.filter((answer) => answer.status === 200);
  const first = Math.min(...result.answers.map((answer) => answer.sentAt));
  const latency = result.answers.map((answer) => answer.answeredAt - answer.sentAt);
  // How long after its own approval each answer arrived: small when answers leave as each commits.
  const afterApproval = approved.map(
    (answer) => answer.answeredAt - (answer.approvedAt ?? answer.answeredAt),
  );
  // Answers that arrived in the last tenth of the burst: all of them when answers wait for the burst.
  const lateShare =
    result.answers.filter((answer) => answer.answeredAt - first >= 0.9 * result.elapsedMs).length /
    result.answers.length;
  return {
    perSecond: (approved.length / result.elapsedMs) * 1000,
    approved: approved.length,
    statuses: Object.entries(
      result.answers.reduce<Record<number, number>>((counts, answer) => {
        counts[answer.status] = (counts[answer.status] ?? 0) + 1;
        return counts;
      }, {}),
    )
      .map(([status, count]) => `${count} × ${status}`)
      .join(', '),
    p50: percentile(latency, 50),
    p95: percentile(latency, 95),
    max: Math.max(...latency),
    afterP50: percentile(afterApproval, 50),
    afterP95: percentile(afterApproval, 95),
    lateShare,
  };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  process.env.SERVICE_NAME ??= 'bench-slots';
  const settings = readArguments();
  const environment = benchEnvironment();
  const databaseName = new URL(environment.DATABASE_URL).pathname.slice(1);
  let client: pg.Client | undefined;
  const cleanUp = cleanUpOnce(environment, async () => {
    await stopServerProcesses();
    await client?.end().catch(() => undefined);
  });

  try {
    const apiEntry = join(REPOSITORY, 'api/dist/src/main.js');
    if (!existsSync(apiEntry)) throw new Error(`${apiEntry} is missing: run npm run build first`);
    console.log(`Database ${databaseName}, Redis prefix ${environment.QUEUE_PREFIX}`);
    await redisReachable(environment.REDIS_URL);
    await migrateDatabase(environment.DATABASE_URL);
    client = new pg.Client({ connectionString: environment.DATABASE_URL });
    client.on('error', () => undefined);
    await client.connect();
    const seeded = await seed(client);
    const admins = new DataSource(dataSourceOptions(environment.DATABASE_URL, { size: 1 }));
    await admins.initialize();
    await firstAdminSeed.run(admins, environment);
    await admins.destroy();

    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const variables = environmentVariables(environment, {
      PORT: String(port),
      HOST: '127.0.0.1',
      // 409s of the half-room burst are expected: not one log line each.
      LOG_LEVEL: 'error',
      API_OPERATIONS_PORT: '0',
      WORKERS_OPERATIONS_PORT: '0',
    });
    console.log(`Starting the API on port ${port}${settings.workers ? ' and a workers process' : ''} …`);
    const apiProcess = ServerProcess.start('API', [...API_NODE_OPTIONS, 'api/dist/src/main.js'], {
      ...variables,
      SERVICE_NAME: 'bench-api',
    });
    await waitForHealthy(apiProcess, `${baseUrl}/api/health`, API_START_TIMEOUT_MS);
    if (settings.workers) {
      ServerProcess.start('workers', ['workers/dist/src/main.js'], {
        ...variables,
        SERVICE_NAME: 'bench-workers',
      });
    }
    const signIn = await post(
      new Agent(),
      baseUrl,
      '/api/auth/admin/login',
      { 'x-session-kind': 'bearer' },
      {
        username: 'admin',
        password: DEVELOPMENT_ADMIN_PASSWORD,
      },
    );
    if (signIn.status !== 200) throw new Error(`admin sign-in failed: ${signIn.status} ${signIn.body}`);
    const api = {
      baseUrl,
      admin: { authorization: `Bearer ${JSON.parse(signIn.body).token}` },
      pid: apiProcess.pid,
    };

    const { approvals: n, concurrency } = settings;
    console.log(`Warm-up: ${WARMUP_APPROVALS} approvals …`);
    const warmup = await insertPendingCoupons(client, seeded.merchantId, seeded.firstSlot, WARMUP_APPROVALS);
    await burst(
      'warm-up',
      api,
      warmup.map((couponId) => ({ couponId, slotId: seeded.firstSlot })),
      concurrency,
    );

    // Each round: the burst into one slot and the reference burst (a slot per coupon), in turn
    // first, so that a machine growing busier or quieter weighs on both alike.
    const results: { one: Burst[]; spread: Burst[] } = { one: [], spread: [] };
    let liveOne = 0;
    for (let round = 1; round <= settings.rounds; round += 1) {
      const [oneSlot] = await insertSlots(client, `Burst ${round}`, 1, n);
      const oneSlotCoupons = await insertPendingCoupons(client, seeded.merchantId, oneSlot!, n);
      const spreadSlots = await insertSlots(client, `Spread ${round}`, n, 1);
      const spreadCoupons = await insertPendingCoupons(client, seeded.merchantId, seeded.firstSlot, n);
      await client.query('VACUUM (ANALYZE)');
      console.log(
        `Round ${round} of ${settings.rounds}: bursts of ${n} approvals, ${concurrency} in flight …`,
      );
      const runOne = async () => {
        results.one.push(
          await burst(
            'one slot',
            api,
            oneSlotCoupons.map((couponId) => ({ couponId, slotId: oneSlot! })),
            concurrency,
          ),
        );
        liveOne = await liveCouponsInSlot(statements(client!), oneSlot!);
      };
      const runSpread = async () => {
        results.spread.push(
          await burst(
            'a slot each',
            api,
            spreadCoupons.map((couponId, index) => ({ couponId, slotId: spreadSlots[index]! })),
            concurrency,
          ),
        );
      };
      if (round % 2 === 1) {
        await runOne();
        await runSpread();
      } else {
        await runSpread();
        await runOne();
      }
    }

    const [halfSlot] = await insertSlots(client, 'Half', 1, Math.floor(n / 2));
    const halfCoupons = await insertPendingCoupons(client, seeded.merchantId, halfSlot!, n);
    const half = await burst(
      'half room',
      api,
      halfCoupons.map((couponId) => ({ couponId, slotId: halfSlot! })),
      concurrency,
    );
    const live = await liveCouponsInSlot(statements(client), halfSlot!);

    const median = (values: number[]) => percentile(values, 50);
    const row = (label: string, bursts: Burst[]) => {
      const figures = bursts.map(summary);
      return (
        `  ${label.padEnd(13)}${figures
          .map((f) => f.perSecond.toFixed(0))
          .join(' / ')
          .padStart(18)}` +
        `${median(figures.map((f) => f.perSecond))
          .toFixed(0)
          .padStart(8)}` +
        `${ms(median(figures.map((f) => f.p50))).padStart(9)}${ms(median(figures.map((f) => f.p95))).padStart(9)}` +
        `${`${ms(median(figures.map((f) => f.afterP50)))} / ${ms(median(figures.map((f) => f.afterP95)))}`.padStart(20)}` +
        `${percent(median(figures.map((f) => f.lateShare))).padStart(7)}` +
        `${percent(median(bursts.map((b) => b.apiCpu ?? Number.NaN))).padStart(9)}` +
        `${percent(median(bursts.map((b) => b.machineBusy))).padStart(9)}`
      );
    };
    const oneRate = median(results.one.map((b) => summary(b).perSecond));
    const spreadRate = median(results.spread.map((b) => summary(b).perSecond));
    const statuses = (bursts: Burst[]) => [...new Set(bursts.map((b) => summary(b).statuses))].join('; ');
    const capacityHeld = live === Math.floor(n / 2) && liveOne === n;
    const lines = [
      '',
      `Slot benchmark: ${n} admin approvals per burst, ${concurrency} in flight, through the API process` +
        `${settings.workers ? ' (a workers process consuming the events meanwhile)' : ' (no workers process)'}, ` +
        `${settings.rounds} rounds`,
      '',
      `  ${''.padEnd(13)}${'approvals/s each round'.padStart(23)}${'median'.padStart(8)}${'p50'.padStart(9)}` +
        `${'p95'.padStart(9)}${'after approval'.padStart(20)}${'late'.padStart(7)}${'API CPU'.padStart(9)}` +
        `${'machine'.padStart(9)}`,
      row('one slot', results.one),
      row('a slot each', results.spread),
      `  (answers: one slot ${statuses(results.one)}; a slot each ${statuses(results.spread)}. Latency and the rest`,
      '   are medians over the rounds; after approval: p50 / p95 of arrival minus the approvedAt stamped in the',
      "   approval's transaction; late: share of answers in the last tenth of the burst)",
      '',
      `  ratio (one slot / a slot each, medians): ${(oneRate / spreadRate).toFixed(2)}`,
      `  one slot of capacity ${n}: ${liveOne} live after the burst`,
      `  a slot with room for ${Math.floor(n / 2)}, ${n} approvals at once: ${summary(half).statuses}; ${live} live`,
      '',
      `Verdict: ${oneRate >= TARGET_PER_SECOND && capacityHeld ? 'MEETS TARGETS' : 'BELOW TARGETS'} ` +
        `(one slot ${oneRate.toFixed(0)} approvals/s ${oneRate >= TARGET_PER_SECOND ? '≥' : '<'} ` +
        `${TARGET_PER_SECOND}; capacity ${capacityHeld ? 'held' : 'EXCEEDED or not reached'})`,
      '',
    ];
    process.stdout.write(lines.join('\n'));
  } finally {
    await cleanUp();
  }
}

main().catch((error: Error) => {
  console.error(`Slot benchmark failed: ${error.stack ?? error.message}`);
  process.exitCode = 1;
});
