import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { feedImportJobId } from '@offers/api/feeds/feed-import-job';
import { moveFeedRun, recordFeedRejections } from '@offers/api/feeds/queries/runs';
import { feedCredential } from '@offers/api/feeds/queries/sources';
import { QueueRegistry } from '@offers/api/infrastructure/jobs/queue-registry';
import { QueueName } from '@offers/api/infrastructure/jobs/queues';
import {
  closeRedisConnection,
  createRedisConnection,
} from '@offers/api/infrastructure/redis/redis-connection';
import { FEED_SOURCE_MESSAGES as M, FEED_RUN_MESSAGES as R } from '@offers/api/rules/feeds';
import { Worker } from 'bullmq';
import { FeedRunJobs } from '../../workers/src/feeds/feed-run-jobs.js';
import { registerAndSignInMerchant, registerAndSignInUser } from '../support/accounts.js';
import { multipart } from '../support/coupons.js';
import { type Marketplace, startMarketplace, untilEventsProcessed } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

let market: Marketplace;

beforeAll(async () => {
  market = await startMarketplace('feed-sources', {
    consumers: [FeedRunJobs],
    settings: { FEED_UPLOAD_MAX_MB: '1' },
  });
});

afterAll(async () => {
  await market?.close();
});

const HEADER_SECRET = 'hdr-secret-8d1f0c9e77';
const BASIC_SECRET = 'basic-pass-3b6a2e41c0';

function admin(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return market.api.http.inject({ method, url, headers: market.admin, payload });
}

function upload(sourceId: number, bytes: Buffer, extra: Record<string, unknown> = {}) {
  const form = multipart(extra, { file: { name: 'feed.csv', type: 'text/csv', bytes } });
  return market.api.http.inject({
    method: 'POST',
    url: `/api/admin/feed-sources/${sourceId}/runs`,
    headers: { ...market.admin, ...form.headers },
    payload: form.payload,
  });
}

let names = 0;
async function aSource(overrides: Record<string, unknown> = {}) {
  names += 1;
  const response = await admin('POST', '/api/admin/feed-sources', {
    name: `Network ${names}`,
    format: 'admitad-json',
    url: 'https://api.admitad.example/coupons/',
    ...overrides,
  });
  if (response.statusCode !== 201) throw new Error(`source not created: ${response.body}`);
  return response.json();
}

const MAPPING = {
  columns: { rowId: 'id', advertiserId: 'store_id', title: 'title', code: 'code' },
  separator: ';',
};

describe('feed sources', () => {
  it('are created with defaults: a free slot, review, subid, enabled, a postback secret', async () => {
    const source = await aSource({ scheduleMinutes: 60 });
    const [freeListing] = await market.api.dataSource.query(
      "SELECT id FROM slots WHERE name = 'Free listing'",
    );
    expect(source).toMatchObject({
      format: 'admitad-json',
      url: 'https://api.admitad.example/coupons/',
      credential: null,
      scheduleMinutes: 60,
      mode: 'full',
      slotId: freeListing.id,
      slotName: 'Free listing',
      reviewPolicy: 'review',
      mapping: null,
      subIdParam: 'subid',
      enabled: true,
      lastRun: null,
    });
    expect(source.postbackSecret).toMatch(/^[\w-]{43}$/);
    const [{ n }] = await market.api.dataSource.query(
      "SELECT count(*)::int AS n FROM outbox WHERE type = 'FeedSourceCreated' AND aggregate_id = $1",
      [String(source.id)],
    );
    expect(n).toBe(1);
  });

  it.each([
    ['no name', { name: ' ' }, 'name', M.nameRequired],
    ['a long name', { name: 'n'.repeat(101) }, 'name', 'Must be at most 100 characters.'],
    ['an unknown format', { format: 'rss' }, 'format', M.format],
    ['an ftp address', { url: 'ftp://feeds.example/x.csv' }, 'url', M.url],
    ['an address that is no URL', { url: 'not a url' }, 'url', M.url],
    ['a schedule not offered', { scheduleMinutes: 5 }, 'scheduleMinutes', M.schedule],
    [
      'a schedule without an address',
      { url: null, scheduleMinutes: 15 },
      'scheduleMinutes',
      M.scheduleNeedsUrl,
    ],
    [
      'a credential without an address',
      { url: null, credential: { kind: 'header', name: 'X-Key', value: 'k' } },
      'credential',
      M.credentialNeedsUrl,
    ],
    ['a credential of no known kind', { credential: { kind: 'oauth' } }, 'credential.kind', M.credentialKind],
    [
      'a header without its value',
      { credential: { kind: 'header', name: 'X-Key' } },
      'credential.value',
      M.credentialValue,
    ],
    [
      'a header name with spaces',
      { credential: { kind: 'header', name: 'X Key', value: 'v' } },
      'credential.name',
      M.credentialHeaderName,
    ],
    [
      'basic without a password',
      { credential: { kind: 'basic', username: 'u' } },
      'credential.password',
      M.credentialPassword,
    ],
    ['an unknown mode', { mode: 'delta' }, 'mode', M.mode],
    ['a slot that does not exist', { slotId: 999999 }, 'slotId', M.slot],
    ['an unknown review policy', { reviewPolicy: 'later' }, 'reviewPolicy', M.reviewPolicy],
    ['a mapped CSV without its mapping', { format: 'mapped-csv' }, 'mapping', M.mappingRequired],
    [
      'a mapping without the title',
      { format: 'mapped-csv', mapping: { columns: { rowId: 'id', advertiserId: 'store' } } },
      'mapping.columns.title',
      M.mappingRequired,
    ],
    [
      'a mapping of a field that does not exist',
      { format: 'mapped-csv', mapping: { columns: { ...MAPPING.columns, price: 'p' } } },
      'mapping.columns.price',
      'This field is not accepted.',
    ],
    [
      'an unknown separator',
      { format: 'mapped-csv', mapping: { ...MAPPING, separator: '#' } },
      'mapping.separator',
      M.separator,
    ],
    ['a sub-id parameter with a space', { subIdParam: 'sub id' }, 'subIdParam', M.subIdParam],
    ['enabled as a word', { enabled: 'maybe' }, 'enabled', M.enabled],
  ])('refuse %s with its message and store nothing', async (_case, changes, field, message) => {
    const [{ before }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS before FROM feed_sources',
    );
    const response = await admin('POST', '/api/admin/feed-sources', {
      name: 'Refused',
      format: 'admitad-json',
      url: 'https://feeds.example/coupons.json',
      ...changes,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[field]).toEqual([message]);
    const [{ after }] = await market.api.dataSource.query('SELECT count(*)::int AS after FROM feed_sources');
    expect(after).toBe(before);
  });

  it('refuse a second source of the same name whatever its case (409 naming the field)', async () => {
    const source = await aSource();
    const response = await admin('POST', '/api/admin/feed-sources', {
      name: source.name.toUpperCase(),
      format: 'cuelinks-json',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().errors.name).toEqual([M.nameTaken]);
  });

  it('keep a mapped CSV’s mapping, and none for the other formats', async () => {
    const source = await aSource({ format: 'mapped-csv', url: null, mapping: MAPPING });
    expect(source.mapping).toEqual(MAPPING);
    expect(source.url).toBeNull();
    const changed = await admin('PUT', `/api/admin/feed-sources/${source.id}`, {
      format: 'linkmydeals-csv',
      url: 'https://feeds.example/lmd.csv',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ format: 'linkmydeals-csv', mapping: null });
  });

  it('never show a credential in any answer, list, log line or event; keep it unless cleared', async () => {
    const source = await aSource({ credential: { kind: 'header', name: 'X-Api-Key', value: HEADER_SECRET } });
    expect(source.credential).toEqual({ kind: 'header', set: true });
    expect(await feedCredential(market.api.dataSource, source.id)).toEqual({
      kind: 'header',
      name: 'X-Api-Key',
      value: HEADER_SECRET,
    });

    // An edit without the credential keeps it.
    const renamed = await admin('PUT', `/api/admin/feed-sources/${source.id}`, {
      name: `${source.name} (India)`,
    });
    expect(renamed.json().credential).toEqual({ kind: 'header', set: true });
    expect((await feedCredential(market.api.dataSource, source.id))?.kind).toBe('header');

    const basic = await admin('PUT', `/api/admin/feed-sources/${source.id}`, {
      credential: { kind: 'basic', username: 'partner', password: BASIC_SECRET },
    });
    expect(basic.json().credential).toEqual({ kind: 'basic', set: true });
    // A refused form does not echo what it was sent.
    const refused = await admin('PUT', `/api/admin/feed-sources/${source.id}`, {
      credential: { kind: 'basic', username: 'partner', password: BASIC_SECRET, extra: HEADER_SECRET },
    });
    expect(refused.statusCode).toBe(400);
    const list = await admin('GET', '/api/admin/feed-sources?perPage=100');
    const one = await admin('GET', `/api/admin/feed-sources/${source.id}`);
    const run = await admin('POST', `/api/admin/feed-sources/${source.id}/runs`);
    expect(run.statusCode).toBe(202);
    await untilEventsProcessed(market);

    const outbox = await market.api.dataSource.query('SELECT payload::text AS payload FROM outbox');
    const keys = await market.api.dataSource.query("SELECT coalesce(body, '') AS body FROM idempotency_keys");
    for (const text of [
      source,
      renamed.body,
      basic.body,
      refused.body,
      list.body,
      one.body,
      run.body,
      ...market.api.logs.map((line) => JSON.stringify(line)),
      ...outbox.map((row: { payload: string }) => row.payload),
      ...keys.map((row: { body: string }) => row.body),
    ].map((value) => (typeof value === 'string' ? value : JSON.stringify(value)))) {
      expect(text).not.toContain(HEADER_SECRET);
      expect(text).not.toContain(BASIC_SECRET);
    }
    // The log lines did see the refused request: the check above read real lines.
    expect(market.api.logs.some((line) => JSON.stringify(line).includes('feed-sources'))).toBe(true);

    const cleared = await admin('PUT', `/api/admin/feed-sources/${source.id}`, { credential: null });
    expect(cleared.json().credential).toBeNull();
    expect(await feedCredential(market.api.dataSource, source.id)).toBeNull();
  });

  it('rotate the postback secret on request, without putting it in the event', async () => {
    const source = await aSource();
    const rotated = await admin('POST', `/api/admin/feed-sources/${source.id}/postback-secret/rotate`);
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json().postbackSecret).not.toBe(source.postbackSecret);
    const events = await market.api.dataSource.query('SELECT payload::text AS payload FROM outbox');
    for (const { payload } of events) {
      expect(payload).not.toContain(source.postbackSecret);
      expect(payload).not.toContain(rotated.json().postbackSecret);
    }
  });

  it('delete a source that never ran; refuse one that ran (409)', async () => {
    const unused = await aSource();
    expect((await admin('DELETE', `/api/admin/feed-sources/${unused.id}`)).statusCode).toBe(200);
    expect((await admin('GET', `/api/admin/feed-sources/${unused.id}`)).statusCode).toBe(404);

    const used = await aSource();
    await admin('POST', `/api/admin/feed-sources/${used.id}/runs`);
    const refused = await admin('DELETE', `/api/admin/feed-sources/${used.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(M.hasRuns);
  });

  it('keep their slot: a slot a source places coupons in cannot be deleted (409)', async () => {
    const slot = await admin('POST', '/api/admin/slots', { name: 'Feeds only', kind: 'free', capacity: 50 });
    const source = await aSource({ slotId: slot.json().id });
    expect(source.slotName).toBe('Feeds only');
    const refused = await admin('DELETE', `/api/admin/slots/${slot.json().id}`);
    expect(refused.statusCode).toBe(409);
    expect((await admin('GET', `/api/admin/feed-sources/${source.id}`)).json().slotId).toBe(slot.json().id);
  });

  it('are for admins only: 401 for visitors, 403 for shoppers and merchants', async () => {
    const source = await aSource();
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl);
    const { session: user } = await registerAndSignInUser(market.api.baseUrl);
    for (const [method, url] of [
      ['GET', '/api/admin/feed-sources'],
      ['GET', `/api/admin/feed-sources/${source.id}`],
      ['POST', '/api/admin/feed-sources'],
      ['POST', `/api/admin/feed-sources/${source.id}/runs`],
      ['GET', '/api/admin/feed-runs'],
    ] as const) {
      const visitor = await market.api.http.inject({
        method,
        url,
        payload: method === 'POST' ? {} : undefined,
      });
      expect(visitor.statusCode).toBe(401);
      for (const session of [merchant, user]) {
        const other = await market.api.http.inject({
          method,
          url,
          headers: session.bearer,
          payload: method === 'POST' ? {} : undefined,
        });
        expect(other.statusCode).toBe(403);
      }
    }
    const [{ n }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM feed_runs WHERE source_id = $1',
      [source.id],
    );
    expect(n).toBe(0);
  });
});

describe('feed runs', () => {
  const importJob = (runId: number, accepted = false) =>
    market.workers.module
      .get(QueueRegistry)
      .get(QueueName.FeedImports)
      .getJob(feedImportJobId(runId, accepted));

  it('of an address: a queued manual run and its import job, named by the run', async () => {
    const source = await aSource();
    const response = await admin('POST', `/api/admin/feed-sources/${source.id}/runs`);
    expect(response.statusCode).toBe(202);
    const run = response.json();
    expect(run).toMatchObject({
      sourceId: source.id,
      status: 'queued',
      trigger: 'manual',
      uploadBytes: null,
    });
    const job = await eventually(() => importJob(run.id), 'the import job');
    expect(job.data).toEqual({ runId: run.id });
    expect(job.opts.attempts).toBeGreaterThan(1);

    // One open run per source.
    const again = await admin('POST', `/api/admin/feed-sources/${source.id}/runs`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(R.alreadyOpen);
  });

  it('of an upload: the bytes kept with the run (gzip as sent), and its job', async () => {
    const source = await aSource({ format: 'mapped-csv', url: null, mapping: MAPPING });
    const without = await admin('POST', `/api/admin/feed-sources/${source.id}/runs`);
    expect(without.statusCode).toBe(400);
    expect(without.json().errors.file).toEqual([R.fileRequired]);

    const feed = gzipSync(Buffer.from('id;store_id;title;code\n1;7;१० % छूट;SAVE10\n'));
    const response = await upload(source.id, feed);
    expect(response.statusCode).toBe(202);
    const run = response.json();
    expect(run).toMatchObject({ status: 'queued', trigger: 'upload', uploadBytes: feed.length });
    const [stored] = await market.api.dataSource.query('SELECT bytes FROM feed_uploads WHERE run_id = $1', [
      run.id,
    ]);
    expect(stored.bytes.equals(feed)).toBe(true);
    await eventually(() => importJob(run.id), 'the import job');
  });

  it('get their job though a finished job of the same id is left from another database', async () => {
    const source = await aSource();
    const [{ sequence }] = await market.api.dataSource.query(
      "SELECT pg_get_serial_sequence('feed_runs', 'id') AS sequence",
    );
    const [{ next }] = await market.api.dataSource.query(
      `SELECT last_value + CASE WHEN is_called THEN 1 ELSE 0 END AS next FROM ${sequence}`,
    );
    const runId = Number(next);
    // The run of that id of a database made before this one, whose job BullMQ keeps a day.
    const queue = market.workers.module.get(QueueRegistry).get(QueueName.FeedImports);
    await queue.add('feed-import', { runId }, { jobId: feedImportJobId(runId) });
    const connection = createRedisConnection(market.test.environment.REDIS_URL, 'worker');
    const other = new Worker(QueueName.FeedImports, async () => 'imported elsewhere', {
      connection,
      prefix: market.test.environment.QUEUE_PREFIX,
    });
    await eventually(async () => (await importJob(runId))?.returnvalue, 'the other job to finish');
    await other.close();
    closeRedisConnection(connection);

    const response = await admin('POST', `/api/admin/feed-sources/${source.id}/runs`);
    expect(response.json().id).toBe(runId);
    const job = await eventually(async () => {
      const found = await importJob(runId);
      return found && (await found.getState()) === 'waiting' ? found : undefined;
    }, 'a new import job');
    expect(job.data).toEqual({ runId });
    expect(job.returnvalue).toBeNull();
  });

  it('refuse a file over FEED_UPLOAD_MAX_MB (413) and record no run', async () => {
    const source = await aSource({ url: null });
    const response = await upload(source.id, Buffer.alloc(1024 * 1024 + 1, 'a'));
    expect(response.statusCode).toBe(413);
    const [{ n }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM feed_runs WHERE source_id = $1',
      [source.id],
    );
    expect(n).toBe(0);
  });

  it('refuse fields other than the file', async () => {
    const source = await aSource({ url: null });
    const response = await upload(source.id, Buffer.from('x'), { status: 'succeeded' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.status).toEqual(['This field is not accepted.']);
  });

  it('are listed newest first by source, each with its counts; 404 for another id', async () => {
    const source = await aSource();
    const first = (await admin('POST', `/api/admin/feed-sources/${source.id}/runs`)).json();
    await market.api.dataSource.transaction((manager) =>
      moveFeedRun(manager, first.id, ['queued'], {
        status: 'succeeded',
        started: true,
        finished: true,
        counts: { rowsRead: 10, added: 7, rejected: 3 },
      }),
    );
    const second = (await admin('POST', `/api/admin/feed-sources/${source.id}/runs`)).json();
    const list = await admin(
      'GET',
      `/api/admin/feed-runs?filter=${encodeURIComponent(JSON.stringify({ sourceId: source.id }))}`,
    );
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-range']).toBe('feed-runs 0-1/2');
    expect(list.json().map((run: { id: number }) => run.id)).toEqual([second.id, first.id]);
    expect(list.json()[1]).toMatchObject({ status: 'succeeded', rowsRead: 10, added: 7, rejected: 3 });
    const sources = await admin(
      'GET',
      `/api/admin/feed-sources?filter=${encodeURIComponent(JSON.stringify({ q: source.name }))}`,
    );
    expect(sources.json()[0].lastRun).toMatchObject({ id: second.id, status: 'queued' });
    expect((await admin('GET', '/api/admin/feed-runs/99999')).statusCode).toBe(404);
    expect((await admin('GET', '/api/admin/feed-runs?filter={"sourceId":"x"}')).statusCode).toBe(400);
    expect((await admin('GET', '/api/admin/feed-runs?filter={"status":"done"}')).statusCode).toBe(400);
  });

  it('give their rejected rows as CSV, cells safe for spreadsheets', async () => {
    const source = await aSource();
    const run = (await admin('POST', `/api/admin/feed-sources/${source.id}/runs`)).json();
    await market.api.dataSource.transaction((manager) =>
      recordFeedRejections(manager, run.id, [
        {
          line: 4,
          rowId: '=HYPERLINK("https://evil.example")',
          reason: 'code',
          message: 'The code is 4-15 letters, digits, "-" or "_".',
        },
        { line: 2, rowId: null, reason: 'title', message: 'शीर्षक, आवश्यक है' },
      ]),
    );
    const shown = await admin('GET', `/api/admin/feed-runs/${run.id}`);
    expect(shown.json().rejections.map((r: { line: number }) => r.line)).toEqual([2, 4]);
    const csv = await admin('GET', `/api/admin/feed-runs/${run.id}/rejections.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toContain(`feed-run-${run.id}-rejections.csv`);
    expect(csv.body.replace(/^\ufeff/, '').split('\r\n')).toEqual([
      'line,rowId,reason,message',
      '2,,title,"शीर्षक, आवश्यक है"',
      `4,"'=HYPERLINK(""https://evil.example"")",code,"The code is 4-15 letters, digits, ""-"" or ""_""."`,
      '',
    ]);
  });

  it('waiting for an admin are accepted (queued again, a new job) or discarded; other states 409', async () => {
    const toWaiting = (runId: number) =>
      market.api.dataSource.transaction((manager) =>
        moveFeedRun(manager, runId, ['queued'], {
          status: 'waiting-for-admin',
          started: true,
          counts: { rowsRead: 5 },
        }),
      );
    const source = await aSource({ url: null });
    const run = (await upload(source.id, Buffer.from('feed'))).json();
    expect((await admin('POST', `/api/admin/feed-runs/${run.id}/accept`)).statusCode).toBe(409);
    expect((await admin('POST', `/api/admin/feed-runs/${run.id}/discard`)).json().message).toBe(R.notWaiting);

    await toWaiting(run.id);
    const accepted = await admin('POST', `/api/admin/feed-runs/${run.id}/accept`);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'queued', uploadBytes: 4 });
    expect(accepted.json().acceptedAt).not.toBeNull();
    await eventually(() => importJob(run.id, true), 'the accepted run’s job');
    expect((await admin('POST', `/api/admin/feed-runs/${run.id}/accept`)).statusCode).toBe(409);

    await toWaiting(run.id);
    const discarded = await admin('POST', `/api/admin/feed-runs/${run.id}/discard`);
    expect(discarded.statusCode).toBe(200);
    expect(discarded.json()).toMatchObject({ status: 'discarded', uploadBytes: null });
    expect(discarded.json().finishedAt).not.toBeNull();
    expect((await admin('POST', `/api/admin/feed-runs/${run.id}/accept`)).statusCode).toBe(409);
    expect((await admin('POST', '/api/admin/feed-runs/99999/discard')).statusCode).toBe(404);
    // The source may run again once the run is over.
    expect((await upload(source.id, Buffer.from('feed'))).statusCode).toBe(202);

    const events = await market.api.dataSource.query(
      "SELECT type FROM outbox WHERE aggregate_type = 'FeedRun' AND aggregate_id = $1 ORDER BY position",
      [String(run.id)],
    );
    expect(events.map((e: { type: string }) => e.type)).toEqual([
      'FeedRunRequested',
      'FeedRunAccepted',
      'FeedRunDiscarded',
    ]);
  });
});
