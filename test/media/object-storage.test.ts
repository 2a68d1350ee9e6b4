import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandBus } from '@nestjs/cqrs';
import { EraseDueAccounts } from '@offers/api/commands';
import { QueueName, QueueRegistry, ScheduledJob } from '@offers/api/platform';
import { configureMediaStore, storeImage, sweepMediaObjects } from '@offers/api/read-models';
import Fastify from 'fastify';
import sharp from 'sharp';
import { ImageCache, serveImages } from '../../web-public/server/image-cache.js';
import { registerAndSignInMerchant, registerAndSignInUser, type Session } from '../support/accounts.js';
import { clickOutDaysAgo } from '../support/claims.js';
import { couponForm, multipart } from '../support/coupons.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { startTestBucket, type TestBucket } from '../support/object-storage.js';
import { type CashbackShop, cashbackShopWithStore } from '../support/payouts.js';
import { eventually } from '../support/test-environment.js';

/**
 * Images in an S3-compatible bucket (s3rver on a free port): stored with their copies under their
 * content's hash, served by the API (streamed, or redirected to a public address) with a year's
 * cache, invoices under `private/` and only to those allowed, the move command both ways, objects
 * of rolled-back uploads swept, and an erasure deleting the invoice's object.
 */
let bucket: TestBucket;
let market: EngagementMarket;
let merchant: Session;

const run = promisify(execFile);

beforeAll(async () => {
  bucket = await startTestBucket();
  market = await startEngagementMarket('media in a bucket', {
    roles: ['relay', 'events', 'scheduler'],
    overrides: bucket.settings,
  });
  merchant = (await registerAndSignInMerchant(market.api.baseUrl)).session;
}, 60_000);

afterAll(async () => {
  await market?.close();
  await bucket?.close();
});

/** The settings the API runs with, but for `changes` (read by every process of the test). */
const reconfigure = (changes: Record<string, string | undefined> = {}) =>
  configureMediaStore({ ...market.test.environment, ...changes } as never);

const picture = (width: number, height: number, background = '#c8502a') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Uploads an ad image with a coupon; answers the image's address. */
async function upload(bytes: Buffer): Promise<string> {
  const { headers, payload } = multipart(couponForm(), {
    adPost: { name: 'ad.png', type: 'image/png', bytes },
  });
  const response = await market.api.http.inject({
    method: 'POST',
    url: '/api/merchant/coupons',
    headers: { ...merchant.bearer, ...headers },
    payload,
  });
  expect(response.statusCode).toBe(201);
  return response.json().imageUrl as string;
}

const row = async (imageUrl: string) =>
  (
    await market.api.dataSource.query(
      'SELECT sha256, storage, bytes, variant_widths AS "variantWidths" FROM media WHERE id = $1',
      [imageUrl.split('/').at(-1)],
    )
  )[0];

/** A GET of the API as a browser makes it, its body as bytes; redirects are not followed. */
async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${market.api.baseUrl}${url}`, { headers, redirect: 'manual' });
  return {
    statusCode: response.status,
    headers: Object.fromEntries(response.headers.entries()),
    rawPayload: Buffer.from(await response.arrayBuffer()),
  };
}

/** Runs a scheduled job through the workers' maintenance queue, as its schedule does. */
async function runScheduledJob(name: string) {
  const maintenance = market.workers.module.get(QueueRegistry).get(QueueName.Maintenance);
  const job = await maintenance.add(name, {});
  await eventually(async () => (await job.getState()) === 'completed', `the job ${name}`, 30_000);
}

describe('public images', () => {
  it('land in the bucket with their copies, under their hash, and nothing stays in the database', async () => {
    const image = await picture(800, 600);
    const imageUrl = await upload(image);

    const stored = await row(imageUrl);
    expect(stored).toMatchObject({ storage: 's3', bytes: null, variantWidths: [160, 320, 480, 640, 800] });
    const widths = [160, 320, 480, 640, 800];
    expect(await bucket.keys(`public/${stored.sha256}`)).toEqual(
      [
        `public/${stored.sha256}.png`,
        ...widths.flatMap((w) => [`public/${stored.sha256}-${w}.png`, `public/${stored.sha256}-${w}.webp`]),
      ].sort(),
    );
    const original = await bucket.object(`public/${stored.sha256}.png`);
    expect(original?.bytes.equals(image)).toBe(true);
    expect(original).toMatchObject({
      contentType: 'image/png',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    const [{ n }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM media_variants v JOIN media m ON m.id = v.media_id WHERE m.sha256 = $1',
      [stored.sha256],
    );
    expect(n).toBe(0);
  });

  it('are streamed by the API from the bucket, with their type, length, ETag and a year of cache', async () => {
    const image = await picture(700, 350, '#2a9d8f');
    const imageUrl = await upload(image);
    const { sha256: hash } = await row(imageUrl);

    const webp = await get(`${imageUrl}?w=320`, { accept: 'image/avif,image/webp,*/*' });
    const png = await get(`${imageUrl}?w=320`, { accept: 'image/png' });
    const full = await get(imageUrl);
    const unchanged = await get(`${imageUrl}?w=320`, {
      accept: 'image/webp',
      'if-none-match': String(webp.headers.etag),
    });

    expect(webp.statusCode).toBe(200);
    expect(webp.headers).toMatchObject({
      'content-type': 'image/webp',
      'cache-control': 'public, max-age=31536000, immutable',
      'content-length': String(webp.rawPayload.length),
      vary: 'Accept',
    });
    expect(webp.headers.etag).toEqual(expect.stringContaining(hash));
    expect(webp.rawPayload.equals((await bucket.object(`public/${hash}-320.webp`))!.bytes)).toBe(true);
    expect(await sharp(webp.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 320,
      height: 160,
    });
    expect(png.headers['content-type']).toBe('image/png');
    expect(full.rawPayload.equals(image)).toBe(true);
    expect(full.headers.etag).toBe(`"${hash}"`);
    expect(unchanged.statusCode).toBe(304);
    // Wider than the image: its own width, never enlarged.
    const wide = await get(`${imageUrl}?w=1920`, { accept: 'image/webp' });
    expect((await sharp(wide.rawPayload).metadata()).width).toBe(700);
  });

  it('are redirected to the public address when one is set', async () => {
    const imageUrl = await upload(await picture(500, 500, '#264653'));
    const { sha256: hash } = await row(imageUrl);
    reconfigure({ MEDIA_PUBLIC_BASE_URL: 'https://cdn.offers.test/media' });
    try {
      const copy = await get(`${imageUrl}?w=160`, { accept: 'image/webp' });
      const original = await get(imageUrl);

      expect(copy.statusCode).toBe(302);
      expect(copy.headers.location).toBe(`https://cdn.offers.test/media/public/${hash}-160.webp`);
      expect(copy.headers.vary).toBe('Accept');
      expect(original.statusCode).toBe(302);
      expect(original.headers.location).toBe(`https://cdn.offers.test/media/public/${hash}.png`);
      // The site's server passes the redirect on to the browser, keeping nothing.
      const cache = new ImageCache();
      const site = Fastify();
      serveImages(site, market.api.baseUrl, cache);
      await site.listen({ port: 0, host: '127.0.0.1' });
      try {
        const { port } = site.server.address() as AddressInfo;
        const passed = await fetch(`http://127.0.0.1:${port}${imageUrl}?w=160`, {
          headers: { accept: 'image/webp' },
          redirect: 'manual',
        });
        expect(passed.status).toBe(302);
        expect(passed.headers.get('location')).toBe(`https://cdn.offers.test/media/public/${hash}-160.webp`);
        expect(cache.size).toBe(0);
      } finally {
        await site.close();
      }
    } finally {
      reconfigure();
    }
  });
});

describe('an upload whose transaction rolls back', () => {
  it('leaves objects that the sweep deletes once the grace has passed, and only those', async () => {
    const kept = await row(await upload(await picture(300, 200, '#e9c46a')));
    const image = await picture(330, 220, '#f4a261');
    const hash = sha256(image);
    // The command's transaction fails after the image is written: a constraint refuses its next row.
    await expect(
      market.api.dataSource.transaction(async (manager) => {
        await storeImage(manager, image, 'image');
        await manager.query("INSERT INTO media_pending_objects (key, kind) VALUES ('x', 'neither')");
      }),
    ).rejects.toThrow(/check constraint/);
    expect(await bucket.keys(`public/${hash}`)).toHaveLength(7);
    expect(await market.api.dataSource.query('SELECT id FROM media WHERE sha256 = $1', [hash])).toEqual([]);

    // Within the grace the objects may still be an upload in progress: they stay.
    await runScheduledJob(ScheduledJob.SweepMediaObjects.name);
    expect(await bucket.keys(`public/${hash}`)).toHaveLength(7);

    await market.api.dataSource.query(
      "UPDATE media_pending_objects SET created_at = now() - interval '2 hours' WHERE key LIKE $1",
      [`public/${hash}%`],
    );
    await runScheduledJob(ScheduledJob.SweepMediaObjects.name);

    expect(await bucket.keys(`public/${hash}`)).toEqual([]);
    expect(
      await market.api.dataSource.query('SELECT 1 FROM media_pending_objects WHERE key LIKE $1', [
        `public/${hash}%`,
      ]),
    ).toEqual([]);
    expect(await bucket.keys(`public/${kept.sha256}`)).toHaveLength(5);
  });
});

describe('an upload whose transaction is still running', () => {
  it('keeps its objects from the sweep, however old its records', async () => {
    const image = await picture(250, 250, '#6d597a');
    const hash = sha256(image);
    const runner = market.api.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await storeImage(runner.manager, image, 'image');
      // No grace at all: every record is old enough, yet this transaction's are held by it.
      await sweepMediaObjects(market.api.dataSource, 0);
      expect(await bucket.keys(`public/${hash}`)).toHaveLength(5);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    await sweepMediaObjects(market.api.dataSource, 0);

    expect(await bucket.keys(`public/${hash}`)).toHaveLength(5);
    const [{ id }] = await market.api.dataSource.query('SELECT id FROM media WHERE sha256 = $1', [hash]);
    const served = await get(`/api/media/${id}`);
    expect([served.statusCode, served.rawPayload.equals(image)]).toEqual([200, true]);
  });
});

describe('the move command', () => {
  it('moves every image to the database and back to the bucket, the same bytes, copies made for older ones', async () => {
    // Images stored in the database, one of them before copies were made on storing.
    reconfigure({ MEDIA_STORE: 'database' });
    const inDatabase = await picture(400, 300, '#8ab17d');
    const older = await picture(200, 100, '#e76f51');
    let olderId: string;
    try {
      await upload(inDatabase);
      [{ id: olderId }] = await market.api.dataSource.query(
        `INSERT INTO media (sha256, content_type, size, bytes) VALUES ($1, 'image/png', $2, $3) RETURNING id`,
        [sha256(older), older.length, older],
      );
    } finally {
      reconfigure();
    }
    const images: Array<{ id: string }> = await market.api.dataSource.query(
      'SELECT id FROM media ORDER BY id',
    );
    const served = async () => {
      const answers: string[] = [];
      for (const { id } of images) {
        for (const query of ['', '?w=160'])
          for (const accept of ['image/webp', 'image/png']) {
            const answer = await get(`/api/media/${id}${query}`, { accept });
            answers.push(`${id}${query} ${accept} ${answer.statusCode} ${sha256(answer.rawPayload)}`);
          }
      }
      return answers;
    };
    const move = (to: string) =>
      run(process.execPath, ['api/dist/src/media/cli/move.js', '--to', to, '--batch', '2'], {
        cwd: new URL('../..', import.meta.url).pathname,
        env: { ...process.env, ...market.test.variables },
      });

    // Every image gets its copies first (the older one's original stands in for them until then).
    await move('database');
    const before = await served();
    expect(await row(`/api/media/${olderId!}`)).toMatchObject({
      storage: 'database',
      variantWidths: [160, 200],
    });

    const toBucket = await move('s3');
    expect(toBucket.stdout).toContain(`Moved to s3: ${images.length} images`);
    expect(await countIn('s3', images)).toBe(images.length);
    expect(await served()).toEqual(before);
    const { sha256: olderHash } = await row(`/api/media/${olderId!}`);
    expect(await bucket.keys(`public/${olderHash}`)).toEqual([
      `public/${olderHash}-160.png`,
      `public/${olderHash}-160.webp`,
      `public/${olderHash}-200.png`,
      `public/${olderHash}-200.webp`,
      `public/${olderHash}.png`,
    ]);

    const again = await move('s3');
    expect(again.stdout).toContain('Moved to s3: 0 images');

    await move('database');
    expect(await countIn('database', images)).toBe(images.length);
    expect(await served()).toEqual(before);
    expect(await bucket.keys('public/')).toEqual([]);
    const [{ n }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM media WHERE bytes IS NULL',
    );
    expect(n).toBe(0);

    await move('s3');
    expect(await served()).toEqual(before);
  }, 120_000);
});

async function countIn(storage: string, images: Array<{ id: string }>): Promise<number> {
  const [{ n }] = await market.api.dataSource.query(
    'SELECT count(*)::int AS n FROM media WHERE storage = $1 AND id = ANY($2::uuid[])',
    [storage, images.map((image) => image.id)],
  );
  return n;
}

describe('invoices', () => {
  let shop: CashbackShop;
  let shopper: Session;
  let claimId: number;
  let key: string;
  const invoice = () =>
    sharp({ create: { width: 60, height: 30, channels: 3, background: 'white' } })
      .jpeg()
      .toBuffer();

  beforeAll(async () => {
    shop = await cashbackShopWithStore(market, 'Saffron tea 10% off', {
      name: 'Saffron House',
      address: 'Srinagar',
    });
    shopper = (await registerAndSignInUser(market.api.baseUrl)).session;
    const address = '10.91.0.7';
    const clickId = await clickOutDaysAgo(
      market,
      shop.couponId,
      { ...shopper.bearer, 'x-forwarded-for': address },
      2,
    );
    const form = multipart(
      {
        clickId,
        orderId: `ST-${process.pid}`,
        orderDate: new Date().toISOString().slice(0, 10),
        amount: '450',
      },
      { invoice: { name: 'invoice.jpg', type: 'image/jpeg', bytes: await invoice() } },
    );
    const filed = await market.api.http.inject({
      method: 'POST',
      url: '/api/me/missing-cashback-claims',
      headers: { ...shopper.bearer, ...form.headers, 'x-forwarded-for': address },
      payload: form.payload,
    });
    expect(filed.statusCode).toBe(201);
    claimId = filed.json().id;
    const [{ invoiceId }] = await market.api.dataSource.query(
      'SELECT invoice_id AS "invoiceId" FROM missing_cashback_claims WHERE id = $1',
      [claimId],
    );
    key = `private/${invoiceId}.jpg`;
  }, 60_000);

  it('are kept under private/, never public, and served only to their shopper and admins', async () => {
    const object = await bucket.object(key);
    expect(object).toMatchObject({ contentType: 'image/jpeg', cacheControl: 'private, no-store' });
    const invoiceId = key.slice('private/'.length, -'.jpg'.length);
    expect((await bucket.keys('public/')).some((one) => one.includes(invoiceId))).toBe(false);
    const [stored] = await market.api.dataSource.query(
      'SELECT storage, bytes FROM private_media WHERE id = $1',
      [invoiceId],
    );
    expect(stored).toEqual({ storage: 's3', bytes: null });

    const own = await get(`/api/claim-invoices/${claimId}`, shopper.bearer);
    const admin = await get(`/api/claim-invoices/${claimId}`, market.admin);
    const other = await get(
      `/api/claim-invoices/${claimId}`,
      (await registerAndSignInUser(market.api.baseUrl)).session.bearer,
    );
    const anonymous = await get(`/api/claim-invoices/${claimId}`);
    const asPublicImage = await get(`/api/media/${invoiceId}`);

    expect(own.statusCode).toBe(200);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.rawPayload.equals(object!.bytes)).toBe(true);
    expect(admin.statusCode).toBe(200);
    expect([other.statusCode, anonymous.statusCode, asPublicImage.statusCode]).toEqual([404, 404, 404]);
  });

  it('are deleted from the bucket when their shopper is erased, once the erasure commits', async () => {
    const rejected = await market.api.http.inject({
      method: 'POST',
      url: `/api/admin/missing-cashback-claims/${claimId}/reject`,
      headers: market.admin,
      payload: { reason: 'The store has no such order.' },
    });
    expect(rejected.statusCode).toBe(200);
    await market.api.dataSource.query(
      `INSERT INTO deletion_requests (person_kind, person_id, state, confirm_token_digest, cancel_token_digest,
                                      confirm_before, confirmed_at, erase_after)
       VALUES ('shopper', $1, 'scheduled', 'confirm', 'cancel', now(), now(), now() - interval '1 second')`,
      [shopper.id],
    );
    expect(await bucket.object(key)).toBeDefined();

    const outcome = await market.workers.module.get(CommandBus).execute(new EraseDueAccounts());

    expect(outcome).toEqual({ erased: 1, postponed: 0 });
    expect(await bucket.object(key)).toBeUndefined();
    expect(await bucket.keys('private/')).toEqual([]);
    expect(
      await market.api.dataSource.query('SELECT 1 FROM media_pending_objects WHERE key = $1', [key]),
    ).toEqual([]);
  });
});
