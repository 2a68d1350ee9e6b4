import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { QueueName, QueueRegistry, ScheduledJob } from '@offers/api/platform';
import { clickOutTarget, newClickId, usableCoupon } from '@offers/api/read-models';
import { CLICK_OUT, POSTBACK, TRACKING } from '@offers/api/rules';
import { CouponListingProjection, DailyFiguresProjection } from '@offers/workers/consumers';
import { registerAndSignInMerchant, registerAndSignInUser, type Session } from '../support/accounts.js';
import {
  approve,
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
} from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

/**
 * Click-outs from a coupon to its store, carrying a click id in the merchant's sub-id parameter,
 * and purchases the store reports back with that click id.
 */
let market: Marketplace;
let merchant: Session;
let shopper: Session;
let couponId: number;
let secret: string;

const CLICK_ID = /^[A-Za-z0-9_-]{22}$/;

beforeAll(async () => {
  market = await startMarketplace('click outs', {
    roles: ['relay', 'events', 'scheduler'],
    consumers: [CouponListingProjection, DailyFiguresProjection],
  });
  merchant = (await registerAndSignInMerchant(market.api.baseUrl)).session;
  couponId = await liveCoupon(merchant);
  shopper = (await registerAndSignInUser(market.api.baseUrl)).session;
  secret = (await inject('GET', '/api/merchant/postback-secret', merchant.bearer)).json().secret;
}, 60_000);

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

async function liveCoupon(owner: Session, overrides: Record<string, unknown> = {}) {
  const id = await submitCoupon(market, owner, overrides);
  const approved = await approve(market, id);
  if (approved.statusCode >= 300) throw new Error(`coupon not approved: ${approved.body}`);
  return id;
}

const clickRows = (): Promise<
  Array<{ id: string; coupon_id: number; merchant_id: number; user_id: number | null; partition: string }>
> =>
  market.api.dataSource.query(
    'SELECT id, coupon_id, merchant_id, user_id, tableoid::regclass::text AS partition FROM clicks',
  );
const clickCount = async () => (await clickRows()).length;

/**
 * A client address of its own for each click-out (sent as a trusted proxy would), so each is a
 * click of its own: one address's click-outs on a coupon within the click window are one click.
 */
let addresses = 0;
const nextAddress = () => {
  addresses += 1;
  return `10.77.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

/** Follows a click-out and answers the click id the target carries in `param`. */
async function clickOut(id: number, headers: Record<string, string> = {}, param = 'subid') {
  const answer = await inject('GET', `/api/out/${id}`, { 'x-forwarded-for': nextAddress(), ...headers });
  expect(answer.statusCode).toBe(302);
  const clickId = new URL(String(answer.headers.location)).searchParams.get(param);
  expect(clickId).toMatch(CLICK_ID);
  return { answer, clickId: clickId! };
}

/** The UTC month's partition name of a time. */
const monthPartition = (at: Date) =>
  `clicks_${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`;

describe('click-outs', () => {
  it('records a click and sends the visitor to the coupon’s store with the click id as subid', async () => {
    const { answer, clickId } = await clickOut(couponId);

    expect(answer.headers.location).toBe(`https://glow.example.in/diwali?subid=${clickId}`);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    expect(answer.headers['x-robots-tag']).toMatch(/noindex/);
    const [click] = (await clickRows()).filter((row) => row.id === clickId);
    expect(click).toEqual({
      id: clickId,
      coupon_id: couponId,
      merchant_id: merchant.id,
      user_id: null,
      partition: monthPartition(new Date()),
    });
    // The event is in the outbox with the click, written by the same transaction.
    const events = await market.api.dataSource.query(
      'SELECT type, aggregate_type, payload FROM outbox WHERE aggregate_id = $1',
      [clickId],
    );
    expect(events).toEqual([
      {
        type: 'ClickedOut',
        aggregate_type: 'Click',
        payload: { couponId, merchantId: merchant.id, userId: null, counted: true },
      },
    ]);
  });

  it('records one anonymous click per address and coupon in the window; the others go to the store with its id', async () => {
    const id = await liveCoupon(merchant);
    const rowsBefore = await clickCount();
    const from = (address: string) => clickOut(id, { 'x-forwarded-for': address });
    const first = await from('10.78.0.1');
    // A reload, the same address in IPv4-mapped form, and a script without cookies: the same click.
    for (const address of ['10.78.0.1', '::ffff:10.78.0.1', '10.78.0.1']) {
      const again = await from(address);
      expect(again.answer.statusCode).toBe(302);
      expect(again.clickId).toBe(first.clickId);
      expect(again.answer.headers.location).toBe(first.answer.headers.location);
    }
    // Another address is another click; so is the same address on another coupon.
    const other = await from('10.78.0.2');
    expect(other.clickId).not.toBe(first.clickId);
    const elsewhere = await clickOut(couponId, { 'x-forwarded-for': '10.78.0.1' });
    expect(elsewhere.clickId).not.toBe(first.clickId);

    expect((await clickCount()) - rowsBefore).toBe(3);
    const events = await market.api.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox WHERE type = 'ClickedOut' AND (payload->>'couponId')::int = $1`,
      [id],
    );
    expect(events).toEqual([{ n: 2 }]);
    await untilEventsProcessed(market);
    const figures = await market.api.dataSource.query(
      `SELECT sum(count)::int AS n FROM daily_figures WHERE figure = 'click-outs' AND coupon_id = $1`,
      [id],
    );
    expect(figures).toEqual([{ n: 2 }]);
  });

  it('records every click-out of a signed-in shopper, while the analytics count the address once', async () => {
    const id = await liveCoupon(merchant);
    const address = { 'x-forwarded-for': '10.79.0.1' };
    const anonymous = await clickOut(id, address);
    const signedIn = [
      await clickOut(id, { ...address, cookie: shopper.cookie }),
      await clickOut(id, { ...address, ...shopper.bearer }),
    ];
    const ids = new Set([anonymous.clickId, ...signedIn.map((click) => click.clickId)]);
    expect(ids.size).toBe(3);
    const users = new Map((await clickRows()).map((row) => [row.id, row.user_id]));
    expect(signedIn.map((click) => users.get(click.clickId))).toEqual([shopper.id, shopper.id]);
    const counted = await market.api.dataSource.query(
      `SELECT payload->>'counted' AS counted FROM outbox
       WHERE type = 'ClickedOut' AND (payload->>'couponId')::int = $1 ORDER BY position`,
      [id],
    );
    expect(counted.map((row: { counted: string }) => row.counted)).toEqual(['true', 'false', 'false']);
    await untilEventsProcessed(market);
    const figures = await market.api.dataSource.query(
      `SELECT sum(count)::int AS n FROM daily_figures WHERE figure = 'click-outs' AND coupon_id = $1`,
      [id],
    );
    expect(figures).toEqual([{ n: 1 }]);
  });

  it('gives every click its own unguessable id', async () => {
    const ids = new Set<string>();
    for (let index = 0; index < 5; index++) ids.add((await clickOut(couponId)).clickId);
    expect(ids.size).toBe(5);
  });

  it('records nothing for a HEAD request (link checkers and previews): only GET goes to the store', async () => {
    const before = await clickCount();
    const answer = await inject('HEAD', `/api/out/${couponId}`);

    expect(answer.statusCode).toBe(405);
    expect(answer.headers.allow).toBe('GET');
    expect(await clickCount()).toBe(before);
  });

  it('records the signed-in shopper, by cookie or bearer; a merchant counts as a visitor', async () => {
    const byCookie = await clickOut(couponId, { cookie: shopper.cookie });
    const byBearer = await clickOut(couponId, shopper.bearer);
    const byMerchant = await clickOut(couponId, merchant.bearer);
    const users = new Map((await clickRows()).map((row) => [row.id, row.user_id]));
    expect(users.get(byCookie.clickId)).toBe(shopper.id);
    expect(users.get(byBearer.clickId)).toBe(shopper.id);
    expect(users.get(byMerchant.clickId)).toBeNull();
  });

  it('uses the merchant’s own sub-id parameter and keeps the URL’s parameters and fragment', async () => {
    const { session: shop } = await registerAndSignInMerchant(market.api.baseUrl);
    const saved = await inject('PUT', '/api/merchant/tracking', shop.bearer, {
      subIdParam: 'aff_sub',
      cookieWindowDays: 45,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ subIdParam: 'aff_sub', cookieWindowDays: 45 });
    const withQuery = await liveCoupon(shop, {
      merchantUrl: 'https://shop.example.in/offers?utm_source=offers&ref=diwali#serums',
    });
    const { answer, clickId } = await clickOut(withQuery, {}, 'aff_sub');
    expect(answer.headers.location).toBe(
      `https://shop.example.in/offers?utm_source=offers&ref=diwali&aff_sub=${clickId}#serums`,
    );
    // A sub-id the stored URL already names is replaced, never sent twice.
    const named = await liveCoupon(shop, { merchantUrl: 'https://shop.example.in/?aff_sub=old&page=2' });
    const again = await clickOut(named, {}, 'aff_sub');
    expect(again.answer.headers.location).toBe(`https://shop.example.in/?aff_sub=${again.clickId}&page=2`);
  });

  it('reads the coupon, then its merchant once (shown, site and tracking), for a click-out and a reveal', async () => {
    const statements: string[] = [];
    // The database itself answers; the statements it is sent are noted on the way.
    const noting = {
      query: (sql: string, parameters?: unknown[]) => {
        statements.push(sql);
        return market.api.dataSource.query(sql, parameters);
      },
    };
    const { session: shop } = await registerAndSignInMerchant(market.api.baseUrl);
    await inject('PUT', '/api/merchant/tracking', shop.bearer, {
      subIdParam: 'aff_click',
      cookieWindowDays: 30,
    });
    const id = await liveCoupon(shop, { merchantUrl: 'https://counted.example.in/' });

    expect(await clickOutTarget(noting, id)).toEqual({
      couponId: id,
      merchantId: shop.id,
      url: 'https://counted.example.in/',
      subIdParam: 'aff_click',
    });
    expect(statements).toHaveLength(2);
    expect(statements.filter((sql) => /\bFROM merchants\b/.test(sql))).toHaveLength(1);

    statements.length = 0;
    expect(await usableCoupon(noting, id)).toMatchObject({
      couponId: id,
      url: 'https://counted.example.in/',
    });
    expect(statements).toHaveLength(2);
    // A hidden store's coupon leads nowhere, decided by the same one read of its merchant.
    await market.api.dataSource.query('UPDATE merchants SET store_hidden = true WHERE id = $1', [shop.id]);
    statements.length = 0;
    expect(await clickOutTarget(noting, id)).toBeUndefined();
    expect(statements).toHaveLength(2);
  });

  it('never goes anywhere but the coupon’s stored URL', async () => {
    const before = await clickCount();
    const tricked = await inject(
      'GET',
      `/api/out/${couponId}?url=https://evil.example&to=https%3A%2F%2Fevil.example&subid=mine`,
      { referer: 'https://evil.example/', host: 'evil.example' },
    );
    expect(tricked.statusCode).toBe(302);
    const target = new URL(String(tricked.headers.location));
    expect(`${target.origin}${target.pathname}`).toBe('https://glow.example.in/diwali');
    expect(target.searchParams.get('subid')).toMatch(CLICK_ID);
    expect(await clickCount()).toBe(before + 1);

    for (const path of [
      `/api/out/${couponId}/https://evil.example`,
      `/api/out/${couponId}%2F..%2F..%2Fevil.example`,
      '/api/out/https%3A%2F%2Fevil.example',
      '/api/out//evil.example',
      '/api/out/%2F%2Fevil.example',
      `/api/out/${couponId}.5`,
      '/api/out/99999999999',
      '/api/out/0',
    ]) {
      const answer = await inject('GET', path);
      expect([answer.statusCode, path]).toEqual([404, path]);
      expect(answer.headers.location).toBeUndefined();
    }
    expect(await clickCount()).toBe(before + 1);
  });

  it('answers 404 for a coupon that is unknown, pending, rejected or expired, or has no web address', async () => {
    const pending = await submitCoupon(market, merchant);
    const rejected = await submitCoupon(market, merchant);
    const rejection = await inject('POST', `/api/admin/coupons/${rejected}/reject`, market.admin, {
      reason: 'The code does not work at checkout.',
    });
    expect(rejection.statusCode).toBe(200);
    const expired = await liveCoupon(merchant);
    await market.api.dataSource.query(
      "UPDATE coupons SET expiry_date = now() - interval '1 hour' WHERE id = $1",
      [expired],
    );
    // A stored address that is not a web page (written before today's checks) is no target either.
    const { session: odd } = await registerAndSignInMerchant(market.api.baseUrl);
    const withoutAddress = await liveCoupon(odd);
    await market.api.dataSource.query('UPDATE coupons SET merchant_url = NULL WHERE id = $1', [
      withoutAddress,
    ]);
    await market.api.dataSource.query(
      "UPDATE merchants SET merchant_url = 'javascript:alert(1)' WHERE id = $1",
      [odd.id],
    );
    const before = await clickCount();
    for (const id of [999_999, pending, rejected, expired, withoutAddress]) {
      const answer = await inject('GET', `/api/out/${id}`, { accept: 'application/json' });
      expect([id, answer.statusCode, answer.json().message]).toEqual([id, 404, CLICK_OUT.unavailable]);
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    expect(await clickCount()).toBe(before);
  });

  it('shows a browser a small page in its language for an offer that ended', async () => {
    const english = await inject('GET', '/api/out/999999', { accept: 'text/html,application/xhtml+xml' });
    expect(english.statusCode).toBe(404);
    expect(english.headers['content-type']).toMatch(/^text\/html/);
    expect(english.body).toContain(CLICK_OUT.unavailable);
    expect(english.body).toContain('<html lang="en">');
    const hindi = await inject('GET', '/api/out/999999', {
      accept: 'text/html',
      'accept-language': 'hi-IN,hi;q=0.9,en;q=0.8',
    });
    expect(hindi.body).toContain('यह ऑफ़र अब उपलब्ध नहीं है।');
    // The site's language choice wins over the browser's.
    const telugu = await inject('GET', '/api/out/999999', {
      accept: 'text/html',
      'accept-language': 'hi',
      cookie: 'language=te',
    });
    expect(telugu.body).toContain('<html lang="te">');
    expect(telugu.body).toContain('ఈ ఆఫర్ ఇప్పుడు అందుబాటులో లేదు.');
  });
});

describe('click partitions', () => {
  it('keeps a click of a month without its partition in the default one', async () => {
    const farAhead = new Date(Date.UTC(new Date().getUTCFullYear() + 2, 5, 15));
    await insertClick(newClickId(farAhead), farAhead, null);
    const [row] = await market.api.dataSource.query(
      'SELECT tableoid::regclass::text AS partition FROM clicks WHERE clicked_at = $1',
      [farAhead],
    );
    expect(row.partition).toBe('clicks_default');
  });

  it('has next month made by the scheduled job, which moves its early clicks out of the default partition', async () => {
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2));
    const partition = monthPartition(nextMonth);
    const partitions = async () =>
      (
        await market.api.dataSource.query(
          "SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'clicks'::regclass",
        )
      ).map((row: { name: string }) => row.name);
    // The migration made this month and the next.
    expect(await partitions()).toEqual(
      expect.arrayContaining([monthPartition(now), partition, 'clicks_default']),
    );
    // As if the job had not run in time: next month's partition is missing and a click arrived.
    await market.api.dataSource.query(`ALTER TABLE clicks DETACH PARTITION ${partition}`);
    await market.api.dataSource.query(`DROP TABLE ${partition}`);
    const early = newClickId(nextMonth);
    await insertClick(early, nextMonth, null);

    const maintenance = market.workers.module.get(QueueRegistry).get(QueueName.Maintenance);
    await maintenance.add(ScheduledJob.EnsureClickPartitions.name, {});

    await eventually(async () => (await partitions()).includes(partition), `partition ${partition}`);
    const [row] = await market.api.dataSource.query(
      'SELECT tableoid::regclass::text AS partition FROM clicks WHERE id = $1',
      [early],
    );
    expect(row.partition).toBe(partition);
  });

  it('finds a click by its id through one partition’s primary key', async () => {
    const { clickId } = await clickOut(couponId);
    const plan: Array<{ 'QUERY PLAN': string }> = await market.api.dataSource.query(
      `EXPLAIN SELECT * FROM clicks WHERE id = $1 AND clicked_at = $2`,
      [
        clickId,
        (await market.api.dataSource.query('SELECT clicked_at FROM clicks WHERE id = $1', [clickId]))[0]
          .clicked_at,
      ],
    );
    const text = plan.map((line) => line['QUERY PLAN']).join('\n');
    expect(text).toContain(monthPartition(new Date()));
    expect(text).not.toContain('clicks_default');
    expect(text).toMatch(/Index (Only )?Scan/);
  });
});

function insertClick(
  id: string,
  at: Date,
  userId: number | null,
  coupon = couponId,
  merchantId = merchant.id,
) {
  return market.api.dataSource.query(
    'INSERT INTO clicks (id, coupon_id, merchant_id, user_id, clicked_at) VALUES ($1, $2, $3, $4, $5)',
    [id, coupon, merchantId, userId, at],
  );
}

describe('tracking settings', () => {
  it('start at the defaults and are validated with the product’s messages', async () => {
    const { session: shop } = await registerAndSignInMerchant(market.api.baseUrl);
    const settings = await inject('GET', '/api/merchant/tracking', shop.bearer);
    expect(settings.json()).toEqual({
      subIdParam: TRACKING.subIdParam.default,
      cookieWindowDays: TRACKING.cookieWindowDays.default,
    });
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [
        { subIdParam: 'sub id', cookieWindowDays: 0 },
        {
          subIdParam: [TRACKING.subIdParam.invalid],
          cookieWindowDays: [TRACKING.cookieWindowDays.invalid],
        },
      ],
      [
        { subIdParam: 'x'.repeat(33), cookieWindowDays: 91 },
        {
          subIdParam: [TRACKING.subIdParam.invalid],
          cookieWindowDays: [TRACKING.cookieWindowDays.invalid],
        },
      ],
      [
        { subIdParam: '', cookieWindowDays: '' },
        {
          subIdParam: [TRACKING.subIdParam.required],
          cookieWindowDays: [TRACKING.cookieWindowDays.required],
        },
      ],
      [
        { subIdParam: 'a&b=c', cookieWindowDays: 7.5 },
        {
          subIdParam: [TRACKING.subIdParam.invalid],
          cookieWindowDays: [TRACKING.cookieWindowDays.invalid],
        },
      ],
      [
        { subIdParam: ['subid'], cookieWindowDays: { days: 3 } },
        {
          subIdParam: [TRACKING.subIdParam.invalid],
          cookieWindowDays: [TRACKING.cookieWindowDays.invalid],
        },
      ],
    ];
    for (const [body, errors] of cases) {
      const answer = await inject('PUT', '/api/merchant/tracking', shop.bearer, body);
      expect([answer.statusCode, answer.json().errors]).toEqual([400, errors]);
    }
    const limits = await inject('PUT', '/api/merchant/tracking', shop.bearer, {
      subIdParam: `a-${'b_'.repeat(15)}`,
      cookieWindowDays: '90',
    });
    expect(limits.json()).toEqual({ subIdParam: `a-${'b_'.repeat(15)}`, cookieWindowDays: 90 });
    const events = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'TrackingSettingsChanged' AND aggregate_id = $1",
      [String(shop.id)],
    );
    expect(events).toEqual([{ payload: { subIdParam: `a-${'b_'.repeat(15)}`, cookieWindowDays: 90 } }]);
  });

  it('are the signed-in merchant’s own: no one else reads or changes them', async () => {
    const { session: mine } = await registerAndSignInMerchant(market.api.baseUrl);
    const { session: theirs } = await registerAndSignInMerchant(market.api.baseUrl);
    const change = { subIdParam: 'clickref', cookieWindowDays: 7 };
    expect((await inject('PUT', '/api/merchant/tracking', mine.bearer, change)).statusCode).toBe(200);
    // Nothing in the request can name another merchant.
    const sneaky = await inject('PUT', '/api/merchant/tracking', mine.bearer, {
      ...change,
      merchantId: theirs.id,
    });
    expect(sneaky.statusCode).toBe(400);
    expect((await inject('GET', '/api/merchant/tracking', theirs.bearer)).json()).toEqual({
      subIdParam: 'subid',
      cookieWindowDays: 30,
    });
    expect((await inject('PUT', '/api/merchant/tracking', {}, change)).statusCode).toBe(401);
    expect((await inject('PUT', '/api/merchant/tracking', shopper.bearer, change)).statusCode).toBe(403);
    expect((await inject('GET', '/api/merchant/tracking', shopper.bearer)).statusCode).toBe(403);
  });
});

describe('postbacks by click', () => {
  let reference = 0;
  const purchase = (overrides: Record<string, unknown> = {}) => {
    reference += 1;
    return {
      purchaseReference: `CLK-${Date.now()}-${reference}`,
      purchaseType: 'online',
      purchaseAmount: '2499.00',
      ...overrides,
    };
  };

  function postback(body: unknown, key = secret) {
    const raw = JSON.stringify(body);
    return inject(
      'POST',
      '/api/postbacks/purchases',
      {
        'content-type': 'application/json',
        'x-signature': `sha256=${createHmac('sha256', key).update(raw).digest('hex')}`,
      },
      raw,
    );
  }

  it('credits the shopper who clicked, for the coupon clicked, once', async () => {
    const { clickId } = await clickOut(couponId, shopper.bearer);
    const body = purchase({ clickId });
    const first = await postback(body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      kind: 'cashback',
      userId: shopper.id,
      merchantId: merchant.id,
      couponId,
      clickId,
      purchaseAmount: '2499.00',
      cashback: '124.95',
      state: 'pending',
    });
    const again = await postback(body);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(first.json().id);
    const [row] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n, min(click_id) AS click FROM earnings WHERE purchase_reference = $1',
      [body.purchaseReference],
    );
    expect(row).toEqual({ n: 1, click: clickId });
    // The shopper sees it in their earnings.
    const mine = await inject('GET', '/api/me/earnings', shopper.bearer);
    expect(mine.json().purchaseHistory.map((entry: { id: number }) => entry.id)).toContain(first.json().id);
  });

  it('accepts the click’s own coupon id and refuses another', async () => {
    const { clickId } = await clickOut(couponId, shopper.bearer);
    expect((await postback(purchase({ clickId, couponId }))).statusCode).toBe(201);
    const otherCoupon = await liveCoupon(merchant);
    const wrong = await postback(purchase({ clickId, couponId: otherCoupon }));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ couponId: [POSTBACK.clickCouponMismatch] });
  });

  it('answers 404 for a click that does not exist', async () => {
    for (const clickId of [newClickId(new Date()), 'not-a-click', '']) {
      const answer = await postback(purchase({ clickId }));
      expect([answer.statusCode, answer.json().message]).toEqual([404, POSTBACK.unknownClick]);
    }
    const notText = await postback(purchase({ clickId: 12345 }));
    expect(notText.statusCode).toBe(400);
    expect(notText.json().errors).toEqual({ clickId: [POSTBACK.clickId] });
  });

  it('refuses another merchant’s report of a click with the bad-signature 401', async () => {
    const { session: other } = await registerAndSignInMerchant(market.api.baseUrl);
    const otherSecret = (await inject('GET', '/api/merchant/postback-secret', other.bearer)).json().secret;
    const { clickId } = await clickOut(couponId, shopper.bearer);
    const before = (await market.api.dataSource.query('SELECT count(*)::int AS n FROM earnings'))[0].n;
    const answer = await postback(purchase({ clickId }), otherSecret);
    expect([answer.statusCode, answer.json().message]).toEqual([401, POSTBACK.badSignature]);
    const unsigned = await inject('POST', '/api/postbacks/purchases', {}, purchase({ clickId }));
    expect(unsigned.statusCode).toBe(401);
    expect((await market.api.dataSource.query('SELECT count(*)::int AS n FROM earnings'))[0].n).toBe(before);
  });

  it('refuses a purchase after the merchant’s cookie window, or before the click, with 422', async () => {
    const day = 86_400_000;
    const clickedAt = new Date(Date.now() - 40 * day);
    const old = newClickId(clickedAt);
    await insertClick(old, clickedAt, shopper.id);
    const late = await postback(purchase({ clickId: old }));
    expect([late.statusCode, late.json().message]).toEqual([422, POSTBACK.clickExpired(30)]);
    // Bought 20 days after the click: inside the window, credited.
    const inTime = await postback(
      purchase({ clickId: old, purchasedAt: new Date(clickedAt.getTime() + 20 * day).toISOString() }),
    );
    expect(inTime.statusCode).toBe(201);
    const early = await postback(
      purchase({ clickId: old, purchasedAt: new Date(clickedAt.getTime() - day).toISOString() }),
    );
    expect([early.statusCode, early.json().message]).toEqual([422, POSTBACK.purchaseBeforeClick]);
    // The merchant's window decides: 45 days takes the late purchase.
    await inject('PUT', '/api/merchant/tracking', merchant.bearer, {
      subIdParam: 'subid',
      cookieWindowDays: 45,
    });
    expect((await postback(purchase({ clickId: old }))).statusCode).toBe(201);
    await inject('PUT', '/api/merchant/tracking', merchant.bearer, {
      subIdParam: 'subid',
      cookieWindowDays: 30,
    });
  });

  it('refuses a click made without signing in with 422: there is no one to credit', async () => {
    const { clickId } = await clickOut(couponId);
    const answer = await postback(purchase({ clickId }));
    expect([answer.statusCode, answer.json().message]).toEqual([422, POSTBACK.anonymousClick]);
  });

  it('keeps the referral-code form working beside it', async () => {
    const code = (await inject('GET', '/api/me/referral', shopper.bearer)).json().code;
    const answer = await postback(purchase({ couponId, referralCode: code }));
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toMatchObject({ userId: shopper.id, couponId, clickId: null });
  });
});
