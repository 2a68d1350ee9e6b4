import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ExpireDueCoupons } from '@offers/api/commands';
import { LISTINGS_CHANNEL, type PublishedEvent } from '@offers/api/events';
import { HOLD_EXPIRY_SWEEP, LISTING_ORDER } from '@offers/api/read-models';
import { COUPON_REVIEW, HTTP_MESSAGES, REVEAL_LIMITS } from '@offers/api/rules';
import { CouponListingProjection } from '@offers/workers/consumers';
import { EventDispatcher, rebuildProjection } from '@offers/workers/events';
import { registerAndSignInMerchant } from '../support/accounts.js';
import {
  approve,
  commandsOf,
  listed,
  type Marketplace,
  merchantWithCoupon,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
  untilListed,
} from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

let market: Marketplace;

beforeAll(async () => {
  market = await startMarketplace('coupon lifecycle');
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

describe('review', () => {
  it('puts an approved coupon in every list within 2 s, by its categories too, never with its code', async () => {
    const { couponId } = await merchantWithCoupon(market, { title: 'Approved serum deal', categoryIds: [3] });

    const approved = await approve(market, couponId);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'live', slotId: 1 });
    await eventually(
      async () => (await listed(market)).data.some((card) => card.id === couponId),
      'listing',
      2_000,
    );

    for (const sort of ['popular', 'newest', 'az', 'best', 'expiring', 'top']) {
      const { data } = await listed(market, `&sort=${sort}`);
      expect(data.map((card) => card.id)).toContain(couponId);
    }
    expect((await listed(market, '&category=3')).data.map((card) => card.id)).toContain(couponId);
    expect((await listed(market, '&category=4')).data.map((card) => card.id)).not.toContain(couponId);
    expect((await listed(market, '&q=serum')).data.map((card) => card.id)).toContain(couponId);
    const card = (await listed(market)).data.find((item) => item.id === couponId)!;
    expect(card).toMatchObject({
      title: 'Approved serum deal',
      categoryIds: [3],
      percentage: 25,
      discountValue: 250,
    });
    expect(JSON.stringify(card)).not.toMatch(/GLOW-/);
    expect(Object.keys(card)).not.toContain('couponCode');
  });

  it('never lists a rejected coupon, keeps its reason, and needs one', async () => {
    const { merchant, couponId } = await merchantWithCoupon(market);

    const noReason = await inject('POST', `/api/admin/coupons/${couponId}/reject`, market.admin, {
      reason: '  ',
    });
    const rejected = await inject('POST', `/api/admin/coupons/${couponId}/reject`, market.admin, {
      reason: 'not clear text',
    });
    const approvedAfter = await approve(market, couponId);
    const seenByMerchant = await inject('GET', `/api/merchant/coupons/${couponId}`, merchant.bearer);

    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual({ reason: [COUPON_REVIEW.reasonRequired] });
    expect(rejected.json()).toMatchObject({ status: 'rejected', rejectionReason: 'not clear text' });
    expect(approvedAfter.statusCode).toBe(409);
    expect(approvedAfter.json().message).toBe(COUPON_REVIEW.notPending('rejected'));
    expect(seenByMerchant.json()).toMatchObject({ status: 'rejected', rejectionReason: 'not clear text' });
    expect((await listed(market)).data.map((card) => card.id)).not.toContain(couponId);
  });

  it('refuses to approve twice, and refuses a full slot naming it', async () => {
    const slot = await inject('POST', '/api/admin/slots', market.admin, {
      name: 'Single spot',
      kind: 'paid',
      price: '999.50',
      capacity: 1,
    });
    expect(slot.json()).toMatchObject({ name: 'Single spot', kind: 'paid', price: '999.50', capacity: 1 });
    const first = await merchantWithCoupon(market);
    const second = await merchantWithCoupon(market);

    expect((await approve(market, first.couponId, slot.json().id)).statusCode).toBe(200);
    const twice = await approve(market, first.couponId, slot.json().id);
    const full = await approve(market, second.couponId, slot.json().id);

    expect(twice.statusCode).toBe(409);
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe('Slot "Single spot" is full.');
    expect((await inject('GET', `/api/admin/coupons/${second.couponId}`, market.admin)).json().status).toBe(
      'pending',
    );
  });

  it('pages the review queue in fives', async () => {
    for (let i = 0; i < 6; i += 1) await merchantWithCoupon(market);
    const filter = encodeURIComponent('{"status":"pending"}');

    const page = await inject('GET', `/api/admin/coupons?filter=${filter}`, market.admin);

    expect(page.json()).toHaveLength(5);
    expect(page.headers['content-range']).toMatch(/^coupons 0-4\/\d+$/);
    expect(page.json().every((coupon: { status: string }) => coupon.status === 'pending')).toBe(true);
    expect(page.json()[0]).toEqual(
      expect.objectContaining({
        couponCode: expect.any(String),
        termsAndConditions: expect.any(String),
        requestedSlotName: 'Free listing',
      }),
    );
  });
});

describe('expiry', () => {
  /**
   * The coupons' expiry date moved to just now, as time passing would (a live coupon's date is
   * fixed): one instant for all, with the microseconds of PostgreSQL's clock. Never further back
   * than coupons already announced, which the sweep has passed for good.
   */
  const pastExpiry = (ids: number[]) =>
    market.api.dataSource.query(
      "UPDATE coupons SET expiry_date = now() - interval '1 millisecond' WHERE id = ANY($1)",
      [ids],
    );

  it('never lists a coupon past its expiry, ends it in one sweep, and only once', async () => {
    const expiresAt = Date.now() + 2_000;
    const { couponId } = await merchantWithCoupon(market, { expiryDate: new Date(expiresAt).toISOString() });
    await approve(market, couponId);
    await untilListed(market, couponId);
    await new Promise((resolve) => setTimeout(resolve, expiresAt - Date.now() + 50));

    // No sweep has run (these workers run no scheduler), yet the list no longer shows it.
    expect((await listed(market)).data.map((card) => card.id)).not.toContain(couponId);
    const first = await commandsOf(market).execute(new ExpireDueCoupons());
    const second = await commandsOf(market).execute(new ExpireDueCoupons());

    expect(first).toBeGreaterThanOrEqual(1);
    expect(second).toBe(0);
    const events = await market.api.dataSource.query(
      "SELECT count(*)::int AS n FROM outbox WHERE type = 'CouponExpired' AND aggregate_id = $1",
      [String(couponId)],
    );
    expect(events).toEqual([{ n: 1 }]);
    await eventually(
      async () =>
        (await market.api.dataSource.query('SELECT 1 FROM coupon_listings WHERE coupon_id = $1', [couponId]))
          .length === 0,
      'the listing row to go',
    );
    expect((await inject('GET', `/api/admin/coupons/${couponId}`, market.admin)).json().status).toBe(
      'expired',
    );
  });

  it('ends a coupon at its expiry date by the clock: every reader sees it expired, the sweep changes no coupon row', async () => {
    const { merchant, couponId } = await merchantWithCoupon(market);
    await approve(market, couponId);
    await pastExpiry([couponId]);
    const row = () =>
      market.api.dataSource.query(
        'SELECT status, ended_at, updated_at, xmin::text AS version FROM coupons WHERE id = $1',
        [couponId],
      );
    const before = await row();
    const listIds = async (status: string) =>
      (
        await inject(
          'GET',
          `/api/merchant/coupons?filter=${encodeURIComponent(JSON.stringify({ status }))}&range=${encodeURIComponent('[0,49]')}`,
          merchant.bearer,
        )
      )
        .json()
        .map((coupon: { id: number }) => coupon.id);

    // No sweep has run: the merchant's records, its filters and the rules already agree.
    expect((await inject('GET', `/api/merchant/coupons/${couponId}`, merchant.bearer)).json().status).toBe(
      'expired',
    );
    expect(await listIds('expired')).toContain(couponId);
    expect(await listIds('live')).not.toContain(couponId);
    const withdrawn = await inject('DELETE', `/api/merchant/coupons/${couponId}`, merchant.bearer);
    expect([withdrawn.statusCode, withdrawn.json().message]).toEqual([
      409,
      COUPON_REVIEW.notWithdrawable('expired'),
    ]);

    expect(await commandsOf(market).execute(new ExpireDueCoupons())).toBeGreaterThanOrEqual(1);
    // The same row version: announced, not rewritten.
    expect(await row()).toEqual(before);
  });

  it('sorts a merchant’s and the admins’ lists by the status readers see', async () => {
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl);
    const live = await submitCoupon(market, merchant);
    await approve(market, live);
    const ended = await submitCoupon(market, merchant);
    await approve(market, ended);
    await pastExpiry([ended]);
    const sorted = async (url: string, headers: Record<string, string>) =>
      (
        await inject(
          'GET',
          `${url}?sort=${encodeURIComponent('["status","ASC"]')}&range=${encodeURIComponent('[0,999]')}`,
          headers,
        )
      )
        .json()
        .filter((coupon: { id: number }) => [live, ended].includes(coupon.id))
        .map((coupon: { id: number; status: string }) => [coupon.id, coupon.status]);

    // "expired" before "live", though both rows still say live.
    const expected = [
      [ended, 'expired'],
      [live, 'live'],
    ];
    expect(await sorted('/api/merchant/coupons', merchant.bearer)).toEqual(expected);
    expect(await sorted('/api/admin/coupons', market.admin)).toEqual(expected);
  });

  it('announces coupons due at the same instant one by one, in order, each once', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { couponId } = await merchantWithCoupon(market);
      await approve(market, couponId);
      ids.push(couponId);
    }
    // One instant for all three, with microseconds the JavaScript clock would round away: the
    // sweep's mark must keep them.
    await pastExpiry(ids);
    // Earlier coupons of other tests may be due too: sweep them first.
    while ((await commandsOf(market).execute(new ExpireDueCoupons(1000))) > 0);
    const announced = await market.api.dataSource.query(
      "SELECT aggregate_id::int AS id FROM outbox WHERE type = 'CouponExpired' AND aggregate_id = ANY($1) ORDER BY id",
      [ids.map(String)],
    );
    expect(announced.map((event: { id: number }) => event.id)).toEqual(ids);

    // One at a time: nothing is left to announce, and nothing twice.
    expect(await commandsOf(market).execute(new ExpireDueCoupons(1))).toBe(0);
  });

  it('waits for an approval or withdrawal in flight before it reads what is due', async () => {
    const inFlight = market.api.dataSource.createQueryRunner();
    await inFlight.startTransaction();
    try {
      await inFlight.query(HOLD_EXPIRY_SWEEP);
      let settled = false;
      const sweep = commandsOf(market)
        .execute(new ExpireDueCoupons())
        .finally(() => {
          settled = true;
        });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
      await inFlight.commitTransaction();
      await sweep;
      expect(settled).toBe(true);
    } finally {
      if (inFlight.isTransactionActive) await inFlight.rollbackTransaction();
      await inFlight.release();
    }
  });

  it('lets a merchant end a live coupon early', async () => {
    const { merchant, couponId } = await merchantWithCoupon(market);
    await approve(market, couponId);
    await untilListed(market, couponId);

    const withdrawn = await inject('DELETE', `/api/merchant/coupons/${couponId}`, merchant.bearer);

    expect(withdrawn.json().status).toBe('withdrawn');
    await untilListed(market, couponId, false);
  });
});

describe('reveal', () => {
  it('gives the code and counts clicks, which move the popular order; one address counts once', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const quiet = await submitCoupon(market, session, { title: 'Quiet deal' });
    const loved = await submitCoupon(market, session, { title: 'Loved deal', couponCode: 'LOVED-25' });
    await approve(market, quiet);
    await approve(market, loved);
    await untilListed(market, loved);
    await inject('POST', `/api/coupons/${quiet}/reveal`, { 'x-forwarded-for': '10.50.0.1' });

    const reveals = [];
    for (const address of ['10.50.1.1', '10.50.1.2', '10.50.1.3']) {
      reveals.push(await inject('POST', `/api/coupons/${loved}/reveal`, { 'x-forwarded-for': address }));
    }
    for (let i = 0; i < 3; i += 1)
      await inject('POST', `/api/coupons/${quiet}/reveal`, { 'x-forwarded-for': '10.50.0.1' });

    expect(reveals[0]!.json()).toEqual({ code: 'LOVED-25', merchantUrl: 'https://glow.example.in/diwali' });
    await eventually(async () => {
      const [row] = await market.api.dataSource.query(
        'SELECT clicks FROM coupon_listings WHERE coupon_id = $1',
        [loved],
      );
      return row?.clicks === 3;
    }, 'three clicks on the loved deal');
    const { data } = await listed(market, `&sort=popular&merchant=${session.id}`);
    expect(data.map((card) => card.id)).toEqual([loved, quiet]);
    const [quietClicks] = await market.api.dataSource.query(
      'SELECT clicks FROM coupon_clicks WHERE coupon_id = $1',
      [quiet],
    );
    expect(quietClicks.clicks).toBe(1);
    const mine = await inject('GET', `/api/merchant/coupons/${loved}`, session.bearer);
    expect(mine.json().clicks).toBe(3);
  });

  it('asks an address that reveals too much to wait', async () => {
    const { couponId } = await merchantWithCoupon(market);
    await approve(market, couponId);
    const address = { 'x-forwarded-for': '10.60.0.1' };
    // The limit counts in fixed minutes: started near a minute's end, the burst would be counted in
    // two windows. Begin in a fresh one when less than 20 s are left.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 20_000) await new Promise((resolve) => setTimeout(resolve, left + 50));

    const statuses = [];
    for (let i = 0; i <= REVEAL_LIMITS.perMinute; i += 1) {
      statuses.push((await inject('POST', `/api/coupons/${couponId}/reveal`, address)).statusCode);
    }

    expect(statuses.slice(0, REVEAL_LIMITS.perMinute).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('answers 404 for a coupon that is not live', async () => {
    const { couponId } = await merchantWithCoupon(market);

    expect((await inject('POST', `/api/coupons/${couponId}/reveal`)).statusCode).toBe(404);
    expect((await inject('POST', '/api/coupons/99999999999/reveal')).statusCode).toBe(400);
  });
});

describe('sorting and rebuilding', () => {
  it('orders by title, value, expiry and placement, and rebuilds the same listing from the event log', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const day = 24 * 3600_000;
    const ids = {
      apple: await submitCoupon(market, session, {
        title: 'apple deal',
        percentage: '10',
        expiryDate: new Date(Date.now() + 9 * day).toISOString(),
      }),
      banana: await submitCoupon(market, session, {
        title: 'Banana deal',
        percentage: '50',
        expiryDate: new Date(Date.now() + 3 * day).toISOString(),
      }),
      cherry: await submitCoupon(market, session, {
        title: 'cherry deal',
        percentage: '50',
        discountValue: '900',
        expiryDate: new Date(Date.now() + 5 * day).toISOString(),
      }),
    };
    await approve(market, ids.apple);
    await approve(market, ids.banana, 2); // Featured, a paid slot
    // Clicks of earlier tests reorder the popular list without dropping ready lists (they follow
    // within a minute): let them all land before the last change, whose lists are compared below.
    await untilEventsProcessed(market);
    await approve(market, ids.cherry);
    await untilListed(market, ids.cherry);
    const order = async (sort: string) =>
      (await listed(market, `&sort=${sort}&merchant=${session.id}`)).data.map((card) => card.id);

    expect(await order('az')).toEqual([ids.apple, ids.banana, ids.cherry]);
    expect(await order('best')).toEqual([ids.cherry, ids.banana, ids.apple]);
    expect(await order('expiring')).toEqual([ids.banana, ids.cherry, ids.apple]);
    expect(await order('newest')).toEqual([ids.cherry, ids.banana, ids.apple]);
    expect((await order('top'))[0]).toBe(ids.banana);

    const before = await Promise.all(
      ['popular', 'newest', 'az', 'best', 'expiring', 'top'].map((sort) => listed(market, `&sort=${sort}`)),
    );
    const projection = market.workers.module
      .get(EventDispatcher)
      .consumers.find((c) => c instanceof CouponListingProjection)!;
    await rebuildProjection(market.workers.dataSource, projection);
    const after = await Promise.all(
      ['popular', 'newest', 'az', 'best', 'expiring', 'top'].map((sort) => listed(market, `&sort=${sort}`)),
    );

    expect(after).toEqual(before);
  });

  it('counts a click applied before or alongside its coupon entering the lists', async () => {
    const { couponId } = await merchantWithCoupon(market, { title: 'Early click deal' });
    await approve(market, couponId);
    await untilListed(market, couponId);
    await inject('POST', `/api/coupons/${couponId}/reveal`, { 'x-forwarded-for': '10.70.0.1' });
    const dataSource = market.workers.dataSource;
    const listingOf = async () =>
      (
        await dataSource.query('SELECT clicks, popularity FROM coupon_listings WHERE coupon_id = $1', [
          couponId,
        ])
      )[0] as { clicks: number; popularity: number | null } | undefined;
    await eventually(async () => (await listingOf())?.clicks === 1, 'the click on the listing', 5_000);
    const inOrder = await listingOf();
    const [approval, reveal] = (await dataSource.query(
      `SELECT id, position::text AS position, type, aggregate_type AS "aggregateType",
              aggregate_id AS "aggregateId", payload, occurred_at AS "occurredAt"
       FROM outbox WHERE aggregate_id = $1 AND type IN ('CouponApproved', 'CouponRevealed') ORDER BY position`,
      [String(couponId)],
    )) as PublishedEvent[];
    for (const event of [approval!, reveal!]) event.occurredAt = new Date(event.occurredAt).toISOString();
    const projection = market.workers.module
      .get(EventDispatcher)
      .consumers.find((c) => c instanceof CouponListingProjection)!;
    const forget = async () => {
      await dataSource.query('DELETE FROM coupon_listings WHERE coupon_id = $1', [couponId]);
      await dataSource.query('DELETE FROM coupon_clicks WHERE coupon_id = $1', [couponId]);
    };

    // The click's job ran first (deliveries of different events run concurrently).
    await forget();
    await dataSource.transaction((manager) => projection.handle(reveal!, manager));
    await dataSource.transaction((manager) => projection.handle(approval!, manager));
    const clickFirst = await listingOf();

    // Both at once: the approval's transaction has inserted the row but not committed.
    await forget();
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    await projection.handle(approval!, runner.manager);
    const click = dataSource.transaction((manager) => projection.handle(reveal!, manager));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await runner.commitTransaction();
    await runner.release();
    await click;
    const together = await listingOf();

    expect(inOrder).toEqual({ clicks: 1, popularity: expect.any(Number) });
    expect(clickFirst).toEqual(inOrder);
    expect(together).toEqual(inOrder);
  });

  it('pages through 50 coupons that tie on every sort key, each exactly once, in every order', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const expiryDate = new Date(Date.now() + 20 * 24 * 3600_000).toISOString().slice(0, 10);
    const ids: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      ids.push(await submitCoupon(market, session, { title: 'Same deal', expiryDate }));
    }
    for (const id of ids) expect((await approve(market, id)).statusCode).toBe(200);
    await untilListed(market, ids.at(-1)!);
    await untilEventsProcessed(market);
    // Approvals a few milliseconds apart would still order "newest" and "popular": make them tie too.
    await market.api.dataSource.query(
      `UPDATE coupon_listings SET approved_at = '2026-11-01T10:00:00Z' WHERE merchant_id = $1`,
      [session.id],
    );
    await market.api.dataSource.query(`SELECT pg_notify('${LISTINGS_CHANNEL}', '')`);
    const perPage = 8;

    for (const sort of ['popular', 'newest', 'az', 'best', 'expiring', 'top']) {
      const seen: number[] = [];
      for (let page = 1; page <= Math.ceil(ids.length / perPage); page += 1) {
        const response = await inject(
          'GET',
          `/api/coupons?sort=${sort}&merchant=${session.id}&perPage=${perPage}&page=${page}`,
        );
        seen.push(...response.json().data.map((card: { id: number }) => card.id));
      }
      expect({ sort, seen: [...seen].sort((a, b) => a - b) }).toEqual({
        sort,
        seen: [...ids].sort((a, b) => a - b),
      });
    }
    // The merchant's own list (react-admin) sorted by a field all 50 share, in pages of 8.
    for (const order of ['ASC', 'DESC']) {
      const seen: number[] = [];
      for (let first = 0; first < ids.length; first += perPage) {
        const response = await inject(
          'GET',
          `/api/merchant/coupons?sort=${encodeURIComponent(JSON.stringify(['title', order]))}&range=${encodeURIComponent(JSON.stringify([first, first + perPage - 1]))}`,
          session.bearer,
        );
        seen.push(...response.json().map((coupon: { id: number }) => coupon.id));
      }
      expect({ order, seen: [...seen].sort((a, b) => a - b) }).toEqual({
        order,
        seen: [...ids].sort((a, b) => a - b),
      });
    }
  });

  it('reads every public order from an index in exactly that order', async () => {
    const plans: Record<string, string> = {};
    await market.api.dataSource.transaction(async (manager) => {
      // On a small table the planner prefers a sort; forbid it to see whether an index fits.
      await manager.query('SET LOCAL enable_sort = off; SET LOCAL enable_seqscan = off');
      for (const [sort, order] of Object.entries(LISTING_ORDER)) {
        const [{ 'QUERY PLAN': plan }] = await manager.query(
          `EXPLAIN (FORMAT JSON) SELECT coupon_id FROM coupon_listings WHERE expires_at > now() ORDER BY ${order} LIMIT 8`,
        );
        plans[sort] = JSON.stringify(plan);
      }
    });

    for (const [sort, plan] of Object.entries(plans)) {
      expect({ sort, sorted: plan.includes('"Node Type":"Sort"') }).toEqual({ sort, sorted: false });
    }
  });

  it('pages with page and perPage (default 8, at most 100), and refuses nonsense', async () => {
    const page = await inject('GET', '/api/coupons');
    const tooMany = await inject('GET', '/api/coupons?perPage=101');
    const badSort = await inject('GET', '/api/coupons?sort=random');

    const all = await listed(market, '&sort=az');
    const second = await inject('GET', '/api/coupons?sort=az&perPage=3&page=2');

    expect(all.total).toBeGreaterThanOrEqual(8);
    expect(page.json().data).toHaveLength(8);
    expect(page.json().total).toBe(all.total);
    expect(second.json().data.map((card: { id: number }) => card.id)).toEqual(
      all.data.slice(3, 6).map((card) => card.id),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(badSort.statusCode).toBe(400);
    const controlCharacter = await inject('GET', '/api/coupons?q=serum%01');
    expect(controlCharacter.statusCode).toBe(400);
    expect(controlCharacter.json().errors).toEqual({ q: ['Search text cannot contain control characters.'] });
    // A NUL is refused before any route, as everywhere.
    const nul = await inject('GET', '/api/coupons?q=serum%00');
    expect(nul.json()).toEqual({ statusCode: 400, message: HTTP_MESSAGES.unreadableText });
  });
});

describe('ready lists', () => {
  it('answer a repeated request with the same bytes and the same security, CORS and request-id headers', async () => {
    const url = '/api/coupons?sort=newest&perPage=3';
    const headers = { origin: 'http://localhost:5173' };

    const first = await inject('GET', url, headers);
    const second = await inject('GET', url, headers);

    expect(second.body).toBe(first.body);
    for (const response of [first, second]) {
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answer from memory with the header block of a routed answer, for each web app and no other origin', async () => {
    const url = '/api/coupons?sort=popular&perPage=2';
    const routed = await inject('GET', url, {
      origin: 'http://localhost:5174',
      'x-request-id': 'first-read',
    });
    const readyForSite = await inject('GET', url, { origin: 'http://localhost:5173' });
    const readyForOther = await inject('GET', url, { origin: 'https://evil.example' });
    const head = await inject('HEAD', url);

    const sameAcrossAnswers = [
      'content-type',
      'content-length',
      'x-content-type-options',
      'strict-transport-security',
      'referrer-policy',
      'vary',
      'cache-control',
      'etag',
    ];
    for (const name of sameAcrossAnswers) {
      expect({ name, value: readyForSite.headers[name] }).toEqual({ name, value: routed.headers[name] });
    }
    expect(routed.headers['x-request-id']).toBe('first-read');
    expect(readyForSite.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(readyForSite.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(readyForSite.headers['access-control-allow-credentials']).toBe('true');
    expect(String(readyForSite.headers['access-control-expose-headers'])).toContain('Content-Range');
    expect(readyForOther.headers['access-control-allow-origin']).toBeUndefined();
    expect(readyForOther.body).toBe(routed.body);
    // A JSON answer carries no document policies (they are for HTML).
    expect(readyForSite.headers['content-security-policy']).toBeUndefined();
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(routed.headers['content-length']);
  });

  it('drop a list when a coupon joins it', async () => {
    const url = '/api/coupons?sort=newest&perPage=100';
    await inject('GET', url);
    const { couponId } = await merchantWithCoupon(market);

    await approve(market, couponId);

    await eventually(
      async () => (await inject('GET', url)).json().data.some((card: { id: number }) => card.id === couponId),
      'the new coupon in the same list',
      2_000,
    );
  });
});
