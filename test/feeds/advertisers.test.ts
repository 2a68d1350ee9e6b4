import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AddCoupon } from '@offers/api/commands';
import { advertiserStore, categoryIdsFor, noteUnmappedAdvertiser } from '@offers/api/read-models';
import { FEED_ADVERTISER_MESSAGES as M } from '@offers/api/rules';
import sharp from 'sharp';
import {
  BEARER_SIGN_IN,
  merchantRegistration,
  registerAndSignInMerchant,
  registrationAddress,
  sessionFrom,
} from '../support/accounts.js';
import { multipart } from '../support/coupons.js';
import {
  commandsOf,
  type Marketplace,
  startMarketplace,
  untilEventsProcessed,
  untilListed,
} from '../support/marketplace.js';

let market: Marketplace;
let sourceId: number;
let otherSourceId: number;

beforeAll(async () => {
  market = await startMarketplace('feed-advertisers');
  sourceId = (
    await admin('POST', '/api/admin/feed-sources', { name: 'Admitad', format: 'admitad-json' })
  ).json().id;
  otherSourceId = (
    await admin('POST', '/api/admin/feed-sources', { name: 'Cuelinks', format: 'cuelinks-json' })
  ).json().id;
});

afterAll(async () => {
  await market?.close();
});

function admin(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  return market.api.http.inject({ method, url, headers: market.admin, payload });
}

const db = () => market.api.dataSource;

async function queued(advertiserId: string, name: string | null = `Advertiser ${advertiserId}`) {
  await noteUnmappedAdvertiser(db().manager, sourceId, { id: advertiserId, name, siteUrl: null }, 3);
  const [row] = await db().query(
    'SELECT id FROM feed_advertisers WHERE source_id = $1 AND advertiser_id = $2',
    [sourceId, advertiserId],
  );
  return row.id as number;
}

const events = async (type: string, aggregateId: string) =>
  (
    await db().query('SELECT payload FROM outbox WHERE type = $1 AND aggregate_id = $2 ORDER BY position', [
      type,
      aggregateId,
    ])
  ).map((row: { payload: unknown }) => row.payload);

const logo = () =>
  sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

describe('the advertisers a run could not place', () => {
  it('wait in the queue, counted per run, until mapped; a mapped one is not noted again', async () => {
    const manager = db().manager;
    expect(await advertiserStore(manager, sourceId, '501')).toBeNull();
    await noteUnmappedAdvertiser(manager, sourceId, { id: '501', name: 'Nykaa', siteUrl: null }, 4, 1);
    await noteUnmappedAdvertiser(
      manager,
      sourceId,
      { id: '501', name: null, siteUrl: 'https://nykaa.com' },
      2,
      1,
    );
    let [row] = await db().query('SELECT * FROM feed_advertisers WHERE advertiser_id = $1', ['501']);
    // One run noting it per batch adds up; the name sent once is kept.
    expect(row).toMatchObject({
      name: 'Nykaa',
      site_url: 'https://nykaa.com',
      rows_waiting: 6,
      merchant_id: null,
    });
    await noteUnmappedAdvertiser(manager, sourceId, { id: '501', name: 'Nykaa', siteUrl: null }, 5, 2);
    [row] = await db().query('SELECT * FROM feed_advertisers WHERE advertiser_id = $1', ['501']);
    expect(row.rows_waiting).toBe(5);

    const list = await admin(
      'GET',
      `/api/admin/feed-advertisers?filter=${encodeURIComponent('{"mapped":false}')}`,
    );
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          advertiserId: '501',
          sourceId,
          sourceName: 'Admitad',
          name: 'Nykaa',
          rowsWaiting: 5,
          merchantId: null,
        }),
      ]),
    );
    expect(list.headers['content-range']).toMatch(/^feed-advertisers \d+-\d+\/\d+$/);

    // The same advertiser id of another source is another advertiser.
    expect(await advertiserStore(manager, otherSourceId, '501')).toBeNull();
  });

  it('is mapped to an existing store (event recorded), which the import then reads', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const id = await queued('602');
    const mapped = await admin('PUT', `/api/admin/feed-advertisers/${id}`, { merchantId: session.id });
    expect(mapped.statusCode).toBe(200);
    expect(mapped.json()).toMatchObject({ merchantId: session.id, rowsWaiting: 0 });
    expect(mapped.json().mappedAt).toBeTruthy();
    expect(await advertiserStore(db().manager, sourceId, '602')).toBe(session.id);
    expect(await events('FeedAdvertiserMapped', String(id))).toEqual([
      {
        sourceId,
        advertiserId: '602',
        merchantId: session.id,
        previousMerchantId: null,
        storeCreated: false,
      },
    ]);
    // Mapped to the store it has: nothing changes, no event.
    expect(
      (await admin('PUT', `/api/admin/feed-advertisers/${id}`, { merchantId: session.id })).statusCode,
    ).toBe(200);
    expect(await events('FeedAdvertiserMapped', String(id))).toHaveLength(1);
    // A run noting it now (mapped meanwhile) leaves it mapped.
    await noteUnmappedAdvertiser(db().manager, sourceId, { id: '602', name: 'x', siteUrl: null }, 9);
    expect(await advertiserStore(db().manager, sourceId, '602')).toBe(session.id);
    const unmappedIds = (
      await admin('GET', `/api/admin/feed-advertisers?filter=${encodeURIComponent('{"mapped":false}')}`)
    )
      .json()
      .map((row: { advertiserId: string }) => row.advertiserId);
    expect(unmappedIds).not.toContain('602');
  });

  it.each([
    ['no store', {}, 'merchantId', M.merchantRequired],
    ['a store that does not exist', { merchantId: 999999 }, 'merchantId', M.merchantUnknown],
    ['a store id that is not a number', { merchantId: 'abc' }, 'merchantId', M.merchantUnknown],
    ['an unknown field', { merchantId: 1, storeName: 'x' }, 'storeName', undefined],
  ])('refuses %s with a 400 and changes nothing', async (_, body, field, message) => {
    const id = await queued('703');
    const response = await admin('PUT', `/api/admin/feed-advertisers/${id}`, body);
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().errors)).toContain(field);
    if (message) expect(response.json().errors[field]).toContain(message);
    expect(await advertiserStore(db().manager, sourceId, '703')).toBeNull();
  });

  it('answers 404 for an advertiser that does not exist', async () => {
    expect((await admin('PUT', '/api/admin/feed-advertisers/999999', { merchantId: 1 })).statusCode).toBe(
      404,
    );
    expect((await admin('GET', '/api/admin/feed-advertisers/999999')).statusCode).toBe(404);
    expect(
      (
        await admin('POST', '/api/admin/feed-advertisers/999999/store', {
          name: 'X',
          siteUrl: 'https://x.in',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('is refused to shoppers and merchants', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    expect(
      (await market.api.http.inject({ method: 'GET', url: '/api/admin/feed-advertisers' })).statusCode,
    ).toBe(401);
    const asMerchant = await market.api.http.inject({
      method: 'GET',
      url: '/api/admin/feed-advertisers',
      headers: session.bearer,
    });
    expect(asMerchant.statusCode).toBe(403);
  });
});

describe('a store created for an advertiser', () => {
  it('has no account, is public with its name and logo, and shows its coupons', async () => {
    const id = await queued('804', 'Tata CLiQ');
    const form = multipart(
      { name: 'Tata CLiQ', siteUrl: 'https://www.tatacliq.com' },
      { logo: { name: 'logo.png', type: 'image/png', bytes: await logo() } },
    );
    const created = await market.api.http.inject({
      method: 'POST',
      url: `/api/admin/feed-advertisers/${id}/store`,
      headers: { ...market.admin, ...form.headers },
      payload: form.payload,
    });
    expect(created.statusCode).toBe(201);
    const merchantId = created.json().merchantId;
    expect(created.json()).toMatchObject({ storeName: 'Tata CLiQ', storeSlug: 'tata-cliq', rowsWaiting: 0 });
    expect(await advertiserStore(db().manager, sourceId, '804')).toBe(merchantId);

    const [merchant] = await db().query(
      `SELECT user_name, password_hash, email, mobile, referral_code, merchant_url FROM merchants WHERE id = $1`,
      [merchantId],
    );
    expect(merchant).toEqual({
      user_name: null,
      password_hash: null,
      email: null,
      mobile: null,
      referral_code: null,
      merchant_url: 'https://www.tatacliq.com',
    });
    expect(await events('StoreWithoutAccountCreated', String(merchantId))).toEqual([
      { name: 'Tata CLiQ', siteUrl: 'https://www.tatacliq.com', slug: 'tata-cliq' },
    ]);
    expect(await events('FeedAdvertiserMapped', String(id))).toEqual([
      expect.objectContaining({ merchantId, storeCreated: true }),
    ]);

    await untilEventsProcessed(market);
    const page = await market.api.http.inject({ method: 'GET', url: '/api/stores/tata-cliq' });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ merchantId, storeName: 'Tata CLiQ' });
    expect(page.json().logoUrl).toMatch(/^\/api\/media\//);
    const index = (await market.api.http.inject({ method: 'GET', url: '/api/stores?perPage=500' })).json();
    expect(index.data.map((store: { slug: string }) => store.slug)).toContain('tata-cliq');

    // Its coupons go live as any store's and the cards name it.
    const [slot] = await db().query("SELECT id FROM slots WHERE name = 'Free listing'");
    const { couponId, status } = await commandsOf(market).execute(
      new AddCoupon(
        merchantId,
        slot.id,
        {
          code: 'CLIQ200',
          title: '₹200 off on fashion',
          description: 'On orders above ₹999.',
          terms: null,
          percentage: null,
          discountValue: 200,
          expiryDate: null,
          exclusive: false,
          merchantUrl: null,
          categoryIds: [],
          texts: {},
        },
        true,
      ),
    );
    expect(status).toBe('live');
    await untilListed(market, couponId);
    const card = (await market.api.http.inject({ method: 'GET', url: '/api/coupons?perPage=100' }))
      .json()
      .data.find((row: { id: number }) => row.id === couponId);
    expect(card).toMatchObject({
      merchantName: 'Tata CLiQ',
      merchant: { id: merchantId, name: 'Tata CLiQ', slug: 'tata-cliq' },
    });
    expect(card.merchant.logoUrl).toMatch(/^\/api\/media\//);
    const reveal = await market.api.http.inject({ method: 'POST', url: `/api/coupons/${couponId}/reveal` });
    expect(reveal.statusCode).toBe(200);

    // Nobody signs in to it, by any name.
    for (const userName of ['', 'tata-cliq', 'Tata CLiQ']) {
      const signIn = await market.api.http.inject({
        method: 'POST',
        url: '/api/auth/merchants/login',
        payload: { userName, password: 'Anything#1234' },
      });
      expect(signIn.statusCode).toBeGreaterThanOrEqual(400);
      expect(signIn.statusCode).toBeLessThan(500);
    }
  });

  it('is made without a logo from JSON; a second store for a mapped advertiser is a 409', async () => {
    const id = await queued('905', 'Ajio');
    const created = await admin('POST', `/api/admin/feed-advertisers/${id}/store`, {
      name: ' Ajio ',
      siteUrl: 'https://www.ajio.com',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().storeName).toBe('Ajio');
    const [{ n }] = await db().query('SELECT count(*)::int AS n FROM merchants');
    const again = await admin('POST', `/api/admin/feed-advertisers/${id}/store`, {
      name: 'Ajio 2',
      siteUrl: 'https://www.ajio.com',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(M.alreadyMapped);
    expect((await db().query('SELECT count(*)::int AS n FROM merchants'))[0].n).toBe(n);
  });

  it.each([
    ['no name', { siteUrl: 'https://x.in' }, 'name'],
    ['a long name', { name: 'n'.repeat(101), siteUrl: 'https://x.in' }, 'name'],
    ['no site', { name: 'X' }, 'siteUrl'],
    ['a site that is no address', { name: 'X', siteUrl: 'javascript:alert(1)' }, 'siteUrl'],
    ['an unknown field', { name: 'X', siteUrl: 'https://x.in', email: 'a@b.in' }, 'email'],
  ])('refuses %s with a 400 and creates nothing', async (_, body, field) => {
    const id = await queued('1006');
    const [{ n }] = await db().query('SELECT count(*)::int AS n FROM merchants');
    const response = await admin('POST', `/api/admin/feed-advertisers/${id}/store`, body);
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().errors)).toContain(field);
    expect((await db().query('SELECT count(*)::int AS n FROM merchants'))[0].n).toBe(n);
    expect(await advertiserStore(db().manager, sourceId, '1006')).toBeNull();
  });

  it('refuses a file that is not an image with a 400', async () => {
    const id = await queued('1107');
    const form = multipart(
      { name: 'Broken', siteUrl: 'https://broken.in' },
      { logo: { name: 'logo.png', type: 'image/png', bytes: Buffer.from('not an image') } },
    );
    const response = await market.api.http.inject({
      method: 'POST',
      url: `/api/admin/feed-advertisers/${id}/store`,
      headers: { ...market.admin, ...form.headers },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(400);
    expect(await advertiserStore(db().manager, sourceId, '1107')).toBeNull();
  });
});

describe('network categories', () => {
  it('map by default to ours of the same name, whatever the case, and are noted once', async () => {
    const ours: Array<{ id: number; name: string }> = await db().query(
      'SELECT id, name FROM categories ORDER BY id',
    );
    const [first, second] = ours;
    const manager = db().manager;
    const ids = await categoryIdsFor(manager, sourceId, [
      first.name.toUpperCase(),
      'Gadgets & More',
      ` ${second.name.toLowerCase()} `,
      first.name,
    ]);
    expect(ids).toEqual([first.id, second.id]);
    const listed = await admin(
      'GET',
      `/api/admin/feed-categories?filter=${encodeURIComponent(JSON.stringify({ sourceId }))}`,
    );
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['content-range']).toMatch(/^feed-categories 0-2\/3$/);
    expect(listed.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'Gadgets & More',
          categoryId: null,
          categoryName: null,
          sourceName: 'Admitad',
        }),
        expect.objectContaining({
          name: first.name.toUpperCase(),
          categoryId: first.id,
          categoryName: first.name,
        }),
      ]),
    );
    // Asked again: the same answer, and no write at all.
    const [{ xmin: before }] = await db().query(
      'SELECT max(xmin::text::bigint) AS xmin FROM feed_categories WHERE source_id = $1',
      [sourceId],
    );
    expect(await categoryIdsFor(manager, sourceId, [first.name, 'gadgets & more'])).toEqual([first.id]);
    const [{ xmin: after }] = await db().query(
      'SELECT max(xmin::text::bigint) AS xmin FROM feed_categories WHERE source_id = $1',
      [sourceId],
    );
    expect(after).toBe(before);
    // Each source has its own table.
    expect(await categoryIdsFor(manager, otherSourceId, [])).toEqual([]);
    const other = await admin(
      'GET',
      `/api/admin/feed-categories?filter=${encodeURIComponent(JSON.stringify({ sourceId: otherSourceId }))}`,
    );
    expect(other.json()).toEqual([]);
  });

  it('are mapped by the admin (an event), and the import then reads the choice', async () => {
    const [, , third] = await db().query('SELECT id, name FROM categories ORDER BY id');
    await categoryIdsFor(db().manager, sourceId, ['Mobiles']);
    const [row] = await db().query(
      "SELECT id FROM feed_categories WHERE source_id = $1 AND name = 'Mobiles'",
      [sourceId],
    );
    const mapped = await admin('PUT', `/api/admin/feed-categories/${row.id}`, { categoryId: third.id });
    expect(mapped.statusCode).toBe(200);
    expect(mapped.json()).toMatchObject({ name: 'Mobiles', categoryId: third.id, categoryName: third.name });
    expect(await categoryIdsFor(db().manager, sourceId, ['mobiles'])).toEqual([third.id]);
    expect(await events('FeedCategoryMapped', String(row.id))).toEqual([
      { sourceId, name: 'Mobiles', categoryId: third.id, previousCategoryId: null },
    ]);
    const cleared = await admin('PUT', `/api/admin/feed-categories/${row.id}`, { categoryId: null });
    expect(cleared.json()).toMatchObject({ categoryId: null, categoryName: null });
    expect(await categoryIdsFor(db().manager, sourceId, ['Mobiles'])).toEqual([]);
    expect(await events('FeedCategoryMapped', String(row.id))).toHaveLength(2);
  });

  it.each([
    ['a category that does not exist', { categoryId: 999999 }],
    ['a category that is not a number', { categoryId: 'books' }],
    ['nothing', {}],
  ])('refuse %s with a 400 and change nothing', async (_, body) => {
    await categoryIdsFor(db().manager, sourceId, ['Travel deals']);
    const [row] = await db().query("SELECT id, category_id FROM feed_categories WHERE name = 'Travel deals'");
    const response = await admin('PUT', `/api/admin/feed-categories/${row.id}`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.categoryId).toBeDefined();
    const [after] = await db().query('SELECT category_id FROM feed_categories WHERE id = $1', [row.id]);
    expect(after.category_id).toBe(row.category_id);
  });

  it('answer 404 for one that does not exist', async () => {
    expect((await admin('PUT', '/api/admin/feed-categories/999999', { categoryId: null })).statusCode).toBe(
      404,
    );
    expect((await admin('GET', '/api/admin/feed-categories/999999')).statusCode).toBe(404);
  });
});

describe('the stores an admin chooses from', () => {
  it('list every store with whether it has an account, filtered by name', async () => {
    const stores = await admin(
      'GET',
      `/api/admin/stores?filter=${encodeURIComponent(JSON.stringify({ q: 'cliq' }))}&sort=["name","ASC"]`,
    );
    expect(stores.statusCode).toBe(200);
    expect(stores.json()).toEqual([
      expect.objectContaining({ name: 'Tata CLiQ', slug: 'tata-cliq', withoutAccount: true, hidden: false }),
    ]);
    const withAccounts = await admin(
      'GET',
      `/api/admin/stores?filter=${encodeURIComponent(JSON.stringify({ withoutAccount: false }))}`,
    );
    expect(withAccounts.json().every((store: { withoutAccount: boolean }) => !store.withoutAccount)).toBe(
      true,
    );
    expect(withAccounts.json().length).toBeGreaterThan(0);
    expect(
      (await admin('GET', `/api/admin/stores?filter=${encodeURIComponent('{"id":["x"]}')}`)).statusCode,
    ).toBe(400);
  });

  it('page, order and count the stores as one statement over merchants and saved stores did', async () => {
    for (const brandName of ['zeta Shop', 'Alpha_Mart', 'alpha mart', 'ALPHA MART', 'Beta']) {
      await registerAndSignInMerchant(market.api.baseUrl, { brandName, merchantName: 'Mart Registered' });
    }
    // A saved store's name comes before the brand's.
    const named = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Omega' });
    const saved = await market.api.http.inject({
      method: 'PUT',
      url: '/api/merchant/store',
      headers: named.session.bearer,
      payload: { storeName: 'alpha Mart Outlet' },
    });
    expect(saved.statusCode).toBe(200);
    // The list as it was read before stores were asked of their owners apart.
    const listedBefore = (
      q: string | null,
      order: string,
      direction: string,
      offset: number,
      limit: number,
    ) =>
      db().query(
        `SELECT m.id, coalesce(nullif(s.store_name, ''), nullif(m.brand_name, ''), m.merchant_name) AS name,
                m.slug, m.merchant_url AS "siteUrl", m.user_name IS NULL AS "withoutAccount", m.store_hidden AS hidden
         FROM merchants m LEFT JOIN merchant_stores s ON s.merchant_id = m.id AND s.is_active
         WHERE $1::text IS NULL
            OR coalesce(nullif(s.store_name, ''), nullif(m.brand_name, ''), m.merchant_name) ILIKE '%' || $1 || '%'
            OR m.slug ILIKE '%' || $1 || '%'
         ORDER BY ${order} ${direction}, m.id ${direction} OFFSET $2 LIMIT $3`,
        [q, offset, limit],
      );
    const nameOrder = `lower(coalesce(nullif(s.store_name, ''), nullif(m.brand_name, ''), m.merchant_name))`;
    for (const [q, sort, direction, first, last] of [
      [null, 'name', 'ASC', 0, 9],
      [null, 'name', 'DESC', 2, 6],
      [null, 'id', 'DESC', 0, 3],
      ['mart', 'name', 'ASC', 0, 24],
      ['a_m', 'name', 'DESC', 0, 24],
      ['ALPHA', 'id', 'ASC', 1, 2],
    ] as const) {
      const filter = q === null ? '' : `&filter=${encodeURIComponent(JSON.stringify({ q }))}`;
      const listed = await admin(
        'GET',
        `/api/admin/stores?sort=["${sort}","${direction}"]&range=[${first},${last}]${filter}`,
      );
      expect(listed.statusCode).toBe(200);
      const expected = await listedBefore(
        q,
        sort === 'name' ? nameOrder : 'm.id',
        direction,
        first,
        last - first + 1,
      );
      expect(listed.json()).toEqual(expected);
      const total = (await listedBefore(q, 'm.id', 'ASC', 0, 100000)).length;
      expect(listed.headers['content-range']).toBe(`stores ${first}-${first + expected.length - 1}/${total}`);
    }
  });
});

describe('claiming a store without an account', () => {
  async function storeWithoutAccount(advertiserId: string, name: string) {
    const id = await queued(advertiserId, name);
    const created = await admin('POST', `/api/admin/feed-advertisers/${id}/store`, {
      name,
      siteUrl: `https://${advertiserId}.example.in`,
    });
    return created.json().merchantId as number;
  }

  it('moves a registered merchant’s account onto the store: it signs in to the store', async () => {
    const storeId = await storeWithoutAccount('1208', 'Bewakoof');
    const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl);
    const claimed = await admin('POST', `/api/admin/stores/${storeId}/claim`, { merchantId: session.id });
    expect(claimed.statusCode).toBe(200);
    expect(claimed.json()).toMatchObject({ id: storeId, name: 'Bewakoof', withoutAccount: false });
    expect(await events('StoreClaimed', String(storeId))).toEqual([{ fromMerchantId: session.id }]);

    // The old session ended with the emptied account; signing in now is the store.
    const before = await market.api.http.inject({
      method: 'GET',
      url: '/api/merchant/profile',
      headers: session.bearer,
    });
    expect(before.statusCode).toBe(401);
    const signedIn = await market.api.http.inject({
      method: 'POST',
      url: '/api/auth/merchants/login',
      headers: BEARER_SIGN_IN,
      payload: { userName: registration.userName, password: registration.password },
    });
    expect(signedIn.statusCode).toBe(200);
    const profile = await market.api.http.inject({
      method: 'GET',
      url: '/api/merchant/profile',
      headers: sessionFrom(signedIn, storeId).bearer,
    });
    expect(profile.json()).toMatchObject({ email: registration.email });
    const [row] = await db().query(
      'SELECT id, email, referral_code, is_email_confirmed FROM merchants WHERE lower(user_name) = lower($1)',
      [registration.userName],
    );
    expect(row).toMatchObject({ id: storeId, email: registration.email, is_email_confirmed: true });
    const [code] = await db().query('SELECT owner_id FROM referral_codes WHERE code = $1', [
      row.referral_code,
    ]);
    expect(code.owner_id).toBe(storeId);
    // The emptied row is a hidden store without an account.
    const [emptied] = await db().query('SELECT user_name, email, store_hidden FROM merchants WHERE id = $1', [
      session.id,
    ]);
    expect(emptied).toEqual({ user_name: null, email: null, store_hidden: true });
    // The store is still public, with its advertiser.
    expect(await advertiserStore(db().manager, sourceId, '1208')).toBe(storeId);
    await untilEventsProcessed(market);
    expect((await market.api.http.inject({ method: 'GET', url: '/api/stores/bewakoof' })).statusCode).toBe(
      200,
    );

    // A second claim of it: it has an account now.
    const other = await registerAndSignInMerchant(market.api.baseUrl);
    const again = await admin('POST', `/api/admin/stores/${storeId}/claim`, { merchantId: other.session.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(M.claimNotAccountless);
  });

  it('refuses a claimant with coupons or a store of its own, or without an account, and a missing store', async () => {
    const storeId = await storeWithoutAccount('1309', 'Snitch');
    const busy = await registerAndSignInMerchant(market.api.baseUrl);
    await market.api.http.inject({
      method: 'PUT',
      url: '/api/merchant/store',
      headers: busy.session.bearer,
      payload: { storeName: 'My own store' },
    });
    const otherStore = await storeWithoutAccount('1310', 'Souled Store');
    const registered = await market.api.http.inject({
      method: 'POST',
      url: '/api/auth/merchants/register',
      headers: registrationAddress(),
      payload: merchantRegistration(),
    });
    expect(registered.statusCode).toBe(201);
    const unconfirmed = registered.json().merchantId;
    for (const merchantId of [busy.session.id, otherStore, unconfirmed, 999999]) {
      const refused = await admin('POST', `/api/admin/stores/${storeId}/claim`, { merchantId });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors.merchantId).toEqual([M.claimMerchantInvalid]);
    }
    expect((await admin('POST', `/api/admin/stores/${storeId}/claim`, {})).statusCode).toBe(400);
    expect(
      (await admin('POST', '/api/admin/stores/999999/claim', { merchantId: busy.session.id })).statusCode,
    ).toBe(404);
    const [store] = await db().query('SELECT user_name FROM merchants WHERE id = $1', [storeId]);
    expect(store.user_name).toBeNull();
  });
});
