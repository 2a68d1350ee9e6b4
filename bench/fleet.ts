/**
 * Fleet benchmark: the product past one machine, as processes on this one. Two APIs, two workers
 * processes and two site servers share one database through PgBouncer in transaction pooling mode
 * (`.ci/pgbouncer.sh`, Debian's 1.18), with images in an S3-compatible bucket (s3rver). A merchant
 * signs up and submits coupons on the second API; an admin approves each on the first; the time
 * from the approval's answer until each site server's kept search page shows the coupon is
 * measured, round after round. Then: the image sent on the second API served by both sites from
 * the bucket, and the connections each tier holds (PostgreSQL's and the pooler's view).
 *
 *   npm run bench:fleet [-- --rounds N]
 *
 * Works in a database, a Redis prefix and a bucket of its own, all removed at the end.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEVELOPMENT_ADMIN_PASSWORD, demoSlotsSeed, firstAdminSeed } from '@offers/api/demo';
import { dataSourceOptions, featureEntities, migrateDatabase } from '@offers/api/platform';
import { Client } from 'pg';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { API_NODE_OPTIONS } from '../api/scripts/node-options.mjs';
import { BEARER_SIGN_IN, registerAndSignInMerchant, sessionFrom } from '../test/support/accounts.js';
import { send } from '../test/support/api-app.js';
import { couponForm } from '../test/support/coupons.js';
import { startTestBucket } from '../test/support/object-storage.js';
import { freePort } from '../test/support/processes.js';
import { TestSmtpServer } from '../test/support/smtp.js';
import { TEST_SESSION_SECRET } from '../test/support/test-environment.js';
import { REPOSITORY, ServerProcess, stopServerProcesses, waitForHealthy } from './listing/children.js';
import { benchEnvironment, environmentVariables, median, positiveOption, redisReachable } from './shared.js';

const START_TIMEOUT_MS = 90_000;
/** The promise to shoppers: a change shows everywhere within this. */
const TARGET_MS = 5_000;
/** How long a round waits for a site before calling the coupon lost. */
const GIVE_UP_MS = 30_000;
const POLL_MS = 20;

const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const rounds = positiveOption('rounds', values.rounds, 20);

for (const built of ['api/dist/src/main.js', 'workers/dist/src/main.js', 'dist/web-public/server/main.js']) {
  if (!existsSync(join(REPOSITORY, built))) throw new Error(`${built} is missing: run npm run bench:fleet`);
}

const environment = benchEnvironment();
const directUrl = environment.DATABASE_URL;
const databaseName = new URL(directUrl).pathname.slice(1);
const pgbouncerDir = mkdtempSync(join(tmpdir(), 'fleet-pgbouncer-'));
let dataSource: DataSource | undefined;
let stopBucket: (() => Promise<void>) | undefined;
const smtp = new TestSmtpServer();

async function cleanUp() {
  await stopServerProcesses();
  await dataSource?.destroy().catch(() => undefined);
  try {
    process.kill(Number(readFileSync(join(pgbouncerDir, 'pgbouncer.pid'), 'utf8')), 'SIGTERM');
  } catch {
    // not started
  }
  rmSync(pgbouncerDir, { recursive: true, force: true });
  await stopBucket?.();
  await smtp.stop().catch(() => undefined);
  const admin = new Client({ connectionString: new URL('/postgres', directUrl).toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await admin.end();
}

try {
  await redisReachable(environment.REDIS_URL);
  console.log(`Database ${databaseName}, Redis prefix ${environment.QUEUE_PREFIX}`);
  await migrateDatabase(directUrl);
  dataSource = new DataSource(dataSourceOptions(directUrl, { size: 2 }, featureEntities));
  await dataSource.initialize();
  for (const seed of [firstAdminSeed, demoSlotsSeed]) await seed.run(dataSource, environment);

  const pooledServer = execFileSync(join(REPOSITORY, '.ci', 'pgbouncer.sh'), [pgbouncerDir], {
    encoding: 'utf8',
  }).trim();
  const pooledUrl = `${pooledServer}/${databaseName}`;
  const bucket = await startTestBucket();
  stopBucket = () => bucket.close();
  await smtp.start();
  console.log(`PgBouncer at ${pooledServer} (transaction pooling), bucket at ${bucket.endpoint}`);

  const shared = environmentVariables(environment, {
    NODE_ENV: 'production',
    SESSION_SECRET: TEST_SESSION_SECRET,
    SMTP_URL: smtp.url,
    DATABASE_URL: pooledUrl,
    DATABASE_DIRECT_URL: directUrl,
    DATABASE_POOLER: 'transaction',
    ...bucket.settings,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    TRUSTED_PROXIES: '127.0.0.1/8,::1',
  });
  const ports = async () => ({ port: await freePort(), operations: await freePort() });
  const apis = [await ports(), await ports()];
  const sites = [await ports(), await ports()];
  const workers = [await ports(), await ports()];
  const apiUrl = (index: number) => `http://127.0.0.1:${apis[index]!.port}`;
  const siteUrl = (index: number) => `http://127.0.0.1:${sites[index]!.port}`;

  const started: Array<[ServerProcess, string]> = [];
  apis.forEach((api, index) => {
    const server = ServerProcess.start(`API ${index + 1}`, [...API_NODE_OPTIONS, 'api/dist/src/main.js'], {
      ...shared,
      SERVICE_NAME: `fleet-api-${index + 1}`,
      PORT: String(api.port),
      API_OPERATIONS_PORT: String(api.operations),
      PUBLIC_URL: siteUrl(index),
    });
    started.push([server, `http://127.0.0.1:${api.operations}/health/ready`]);
  });
  workers.forEach((worker, index) => {
    const server = ServerProcess.start(`workers ${index + 1}`, ['workers/dist/src/main.js'], {
      ...shared,
      SERVICE_NAME: `fleet-workers-${index + 1}`,
      WORKERS_OPERATIONS_PORT: String(worker.operations),
      PUBLIC_URL: siteUrl(index),
    });
    started.push([server, `http://127.0.0.1:${worker.operations}/health/ready`]);
  });
  sites.forEach((site, index) => {
    const server = ServerProcess.start(`site ${index + 1}`, ['dist/web-public/server/main.js'], {
      ...shared,
      SERVICE_NAME: `fleet-site-${index + 1}`,
      WEB_PORT: String(site.port),
      WEB_OPERATIONS_PORT: String(site.operations),
      API_UPSTREAM_URL: apiUrl(index),
      PUBLIC_URL: siteUrl(index),
    });
    started.push([server, `http://127.0.0.1:${site.operations}/health/ready`]);
  });
  await Promise.all(
    started.map(([server, url]) =>
      waitForHealthy(server, url, START_TIMEOUT_MS).catch(async (error: Error) => {
        const answer = await fetch(url).then((response) => response.text(), String);
        throw new Error(`${error.message}: ${answer}`);
      }),
    ),
  );
  console.log('2 APIs, 2 workers processes and 2 site servers ready');

  // The admin signs in on the first API; the merchant signs up and works on the second.
  const adminSignIn = await send(apiUrl(0), {
    method: 'POST',
    url: '/api/auth/admin/login',
    headers: BEARER_SIGN_IN,
    payload: { username: 'admin', password: environment.ADMIN_PASSWORD ?? DEVELOPMENT_ADMIN_PASSWORD },
  });
  if (adminSignIn.statusCode !== 200) throw new Error(`admin sign-in: ${adminSignIn.body}`);
  const admin = sessionFrom(adminSignIn, adminSignIn.json().userId).bearer;
  const { session: merchant } = await registerAndSignInMerchant(apiUrl(1), { brandName: 'Fleet Foods' });

  // An image sent to the second API: in the bucket with its widths, served by both sites.
  const logo = await sharp({ create: { width: 640, height: 320, channels: 3, background: '#e76f51' } })
    .png()
    .toBuffer();
  const store = await send(apiUrl(1), {
    method: 'PUT',
    url: '/api/merchant/store',
    headers: merchant.bearer,
    payload: { storeName: 'Fleet Foods', merchantLogo: `data:image/png;base64,${logo.toString('base64')}` },
  });
  if (store.statusCode !== 200) throw new Error(`store: ${store.body}`);
  const logoUrl: string = store.json().logoUrl;
  const objects = await bucket.keys('public/');
  const served = await Promise.all(
    [0, 1].map(async (index) => {
      const response = await fetch(`${siteUrl(index)}${logoUrl}?w=160`, {
        headers: { accept: 'image/webp' },
      });
      return `site ${index + 1}: ${response.status} ${response.headers.get('content-type')} ${(await response.arrayBuffer()).byteLength} bytes`;
    }),
  );

  const times: number[][] = [[], []];
  let over = 0;
  for (let round = 1; round <= rounds; round++) {
    const word = `fleet${round}x${Date.now().toString(36)}`;
    const search = `/coupons?q=${word}`;
    // The page repeats the words searched for: the coupon is its whole title.
    const title = `Fleet ${word} 20% off`;
    // Each site keeps the search page ready, without the coupon: a notification must drop it.
    for (const index of [0, 1]) {
      const page = await (await fetch(`${siteUrl(index)}${search}`)).text();
      if (page.includes(title)) throw new Error(`round ${round}: the coupon shows before its approval`);
    }
    const submitted = await send(apiUrl(1), {
      method: 'POST',
      url: '/api/merchant/coupons',
      headers: merchant.bearer,
      payload: couponForm({ title, categoryIds: [1] }),
    });
    if (submitted.statusCode !== 201) throw new Error(`submission: ${submitted.body}`);
    const approved = await send(apiUrl(0), {
      method: 'POST',
      url: `/api/admin/coupons/${submitted.json().id}/approve`,
      headers: admin,
      payload: {},
    });
    if (approved.statusCode !== 200) throw new Error(`approval: ${approved.body}`);
    const at = performance.now();
    await Promise.all(
      [0, 1].map(async (index) => {
        for (;;) {
          const page = await (await fetch(`${siteUrl(index)}${search}`)).text();
          const elapsed = performance.now() - at;
          if (page.includes(title)) {
            times[index]!.push(elapsed);
            if (elapsed > TARGET_MS) over++;
            return;
          }
          if (elapsed > GIVE_UP_MS)
            throw new Error(`round ${round}: site ${index + 1} never showed the coupon`);
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      }),
    );
  }

  const connections = await dataSource.query(
    `SELECT application_name, count(*)::int AS connections,
            count(*) FILTER (WHERE query LIKE 'LISTEN%')::int AS listening
       FROM pg_stat_activity WHERE datname = $1 GROUP BY 1 ORDER BY 1`,
    [databaseName],
  );
  const pooler = new Client({ connectionString: `${pooledServer}/pgbouncer` });
  await pooler.connect();
  const pools = (await pooler.query('SHOW POOLS')).rows.filter((row) => row.database === databaseName);
  const clients = (await pooler.query('SHOW CLIENTS')).rows.filter((row) => row.database === databaseName);
  await pooler.end();

  const figures = (list: number[]) =>
    `median ${median(list).toFixed(0)} ms, max ${Math.max(...list).toFixed(0)} ms, min ${Math.min(...list).toFixed(0)} ms`;
  console.log(
    `\nA coupon approved on API 1, shown on each site (${rounds} rounds; the target is ${TARGET_MS} ms):`,
  );
  console.log(`  site 1 (forwards to API 1): ${figures(times[0]!)}`);
  console.log(`  site 2 (forwards to API 2): ${figures(times[1]!)}`);
  console.log(`  rounds over ${TARGET_MS} ms on either site: ${over}`);
  console.log(`\nImages: ${objects.length} objects under public/ in the bucket for one logo`);
  for (const line of served) console.log(`  ${line}`);
  console.log('\nPostgreSQL connections to the database (pg_stat_activity), by application:');
  for (const row of connections) {
    console.log(
      `  ${String(row.application_name || '(none)').padEnd(24)} ${row.connections} (LISTEN: ${row.listening})`,
    );
  }
  const serverSide = pools.reduce(
    (sum, row) => sum + Number(row.sv_active) + Number(row.sv_idle) + Number(row.sv_used),
    0,
  );
  console.log(`PgBouncer: ${clients.length} client connections carried by ${serverSide} server connections`);
} finally {
  await cleanUp();
}
