import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EARNINGS, FEED_POSTBACK_MESSAGES, FEED_POSTBACK_PRESETS, POSTBACK } from '@offers/api/rules';
import { CouponListingProjection } from '@offers/workers/consumers';
import { FeedRunJobs } from '@offers/workers/feeds';
import { registerAndSignInMerchant, registerAndSignInUser, type Session } from '../support/accounts.js';
import { multipart } from '../support/coupons.js';
import { mapAdvertiser } from '../support/feeds.js';
import { approve, type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';
import { admitadCoupon } from './feed-samples.js';

/**
 * Feed coupons' click-outs to their network's tracking link, and the networks' postbacks to each
 * source's address: read through the source's mapping, recorded once per (source, order id), the
 * earning moved as the network's status says, refusals changing nothing, the token in no log.
 */
let market: Marketplace;
let shopper: Session;
let storeId: number;
let admitad: { id: number; secret: string; couponId: number };
let cuelinks: { id: number; secret: string; couponId: number };
let ownCouponId: number;

const ADMITAD_LINK =
  'https://ad.admitad.com/g/1e8d114494/?subid=publisher-old&ulp=https%3A%2F%2Fshop.example.in%2F';
const CUELINKS_LINK = 'https://linksredirect.com/?cid=11223&source=api&url=https%3A%2F%2Fshop.example.in%2F';

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });
const admin = (method: string, url: string, payload?: unknown) => inject(method, url, market.admin, payload);

async function aSource(name: string, format: string, feed: string, fileName: string, advertiserId: string) {
  const created = await admin('POST', '/api/admin/feed-sources', {
    name,
    format,
    url: null,
    reviewPolicy: 'publish',
  });
  expect(created.statusCode).toBe(201);
  const { id, postbackSecret } = created.json();
  await mapAdvertiser(market.api.dataSource, id, advertiserId, storeId);
  const form = multipart(
    {},
    { file: { name: fileName, type: 'application/octet-stream', bytes: Buffer.from(feed) } },
  );
  const requested = await inject(
    'POST',
    `/api/admin/feed-sources/${id}/runs`,
    { ...market.admin, ...form.headers },
    form.payload,
  );
  expect(requested.statusCode).toBe(202);
  await eventually(
    async () =>
      (await admin('GET', `/api/admin/feed-runs/${requested.json().id}`)).json().status === 'succeeded',
    `the run of ${name}`,
  );
  const [{ couponId }] = await market.api.dataSource.query(
    'SELECT coupon_id AS "couponId" FROM feed_coupons WHERE source_id = $1',
    [id],
  );
  return { id: id as number, secret: postbackSecret as string, couponId: couponId as number };
}

beforeAll(async () => {
  market = await startMarketplace('postbacks network', {
    consumers: [FeedRunJobs, CouponListingProjection],
    roles: ['relay', 'events', 'feeds'],
    // Every request is logged (its address too), so the logs show what a secret could leak into.
    settings: { LOG_LEVEL: 'debug' },
  });
  const store = (await registerAndSignInMerchant(market.api.baseUrl)).session;
  storeId = store.id;
  ownCouponId = await submitCoupon(market, store);
  expect((await approve(market, ownCouponId)).statusCode).toBeLessThan(300);
  shopper = (await registerAndSignInUser(market.api.baseUrl)).session;
  const admitadRow = {
    ...admitadCoupon(1),
    campaign: { id: 7001, name: 'Shop', site_url: 'https://shop.example.in/' },
    promocode: 'NETWORK10',
    date_end: '2031-12-31 23:59:59',
    goto_link: ADMITAD_LINK,
  };
  admitad = await aSource(
    'Admitad network',
    'admitad-json',
    JSON.stringify({ results: [admitadRow] }),
    'admitad.json',
    '7001',
  );
  cuelinks = await aSource(
    'Cuelinks network',
    'cuelinks-json',
    JSON.stringify({
      offers: [
        {
          id: 9901,
          title: 'Extra 10% off at the shop',
          description: 'On every order.',
          coupon_code: 'CUE10',
          affiliate_url: CUELINKS_LINK,
          start_date: '2026-01-01',
          end_date: '2031-06-30',
          categories: null,
          campaign_id: 8801,
          campaign_name: 'Shop',
        },
      ],
    }),
    'cuelinks.json',
    '8801',
  );
}, 120_000);

afterAll(async () => {
  await market?.close();
});

let addresses = 0;
/** A click-out of the shopper (or a visitor) from an address of its own; answers the target and click id. */
async function clickOut(couponId: number, signedIn = true) {
  addresses += 1;
  const answer = await inject('GET', `/api/out/${couponId}`, {
    'x-forwarded-for': `10.91.0.${addresses}`,
    ...(signedIn ? shopper.bearer : {}),
  });
  expect(answer.statusCode).toBe(302);
  const location = new URL(String(answer.headers.location));
  return { location, clickId: location.searchParams.get('subid')! };
}

const outboxCount = async () =>
  (await market.api.dataSource.query('SELECT count(*)::int AS n FROM outbox'))[0].n as number;
/** Events but the click-outs' own. */
const changeEvents = async () =>
  (await market.api.dataSource.query("SELECT count(*)::int AS n FROM outbox WHERE type <> 'ClickedOut'"))[0]
    .n as number;
const earningsCount = async () =>
  (await market.api.dataSource.query('SELECT count(*)::int AS n FROM earnings'))[0].n as number;
const eventsOf = async (earningId: number) =>
  (
    await market.api.dataSource.query(
      'SELECT type, payload FROM outbox WHERE aggregate_id = $1 AND aggregate_type = $2 ORDER BY position',
      [String(earningId), 'Earning'],
    )
  ).map((row: { type: string; payload: Record<string, unknown> }) => row);

const query = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const admitadGet = (fields: Record<string, string>, token = admitad.secret) =>
  inject('GET', `/api/postbacks/networks/${admitad.id}?${query({ token, ...fields })}`);

let orders = 0;
const nextOrder = () => {
  orders += 1;
  return `ORD-${orders}-${Date.now()}`;
};

describe('a feed coupon’s click-out', () => {
  it('goes to the network’s tracking link with our click id in the source’s sub-id parameter, recorded as any click', async () => {
    const { location, clickId } = await clickOut(admitad.couponId);
    expect(clickId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // The publisher's old sub-id is replaced; the link's other parameters stay.
    expect(location.origin + location.pathname).toBe('https://ad.admitad.com/g/1e8d114494/');
    expect(location.searchParams.getAll('subid')).toEqual([clickId]);
    expect(location.searchParams.get('ulp')).toBe('https://shop.example.in/');
    const [click] = await market.api.dataSource.query(
      'SELECT coupon_id AS "couponId", merchant_id AS "merchantId", user_id AS "userId" FROM clicks WHERE id = $1',
      [clickId],
    );
    expect(click).toEqual({ couponId: admitad.couponId, merchantId: storeId, userId: shopper.id });
    const [event] = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'ClickedOut' AND aggregate_id = $1",
      [clickId],
    );
    expect(event.payload).toEqual({
      couponId: admitad.couponId,
      merchantId: storeId,
      userId: shopper.id,
      counted: true,
    });

    const other = await clickOut(cuelinks.couponId);
    expect(other.location.href).toBe(`${CUELINKS_LINK}&subid=${other.clickId}`);
  });

  it('of the store’s own coupon still goes to the store', async () => {
    const { location } = await clickOut(ownCouponId);
    expect(location.hostname).not.toBe('ad.admitad.com');
    expect(location.hostname).not.toBe('linksredirect.com');
  });
});

describe('a network’s postback', () => {
  it('by GET with Admitad’s fields records the click’s purchase once, at the cashback rate, with the network’s commission', async () => {
    const { clickId } = await clickOut(admitad.couponId);
    const order = nextOrder();
    const fields = {
      subid: clickId,
      order_id: order,
      order_sum: '1999.00',
      payment_sum: '140.50',
      currency: 'INR',
      status: 'pending',
    };
    const first = await admitadGet(fields);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      kind: 'cashback',
      userId: shopper.id,
      merchantId: storeId,
      couponId: admitad.couponId,
      clickId,
      purchaseReference: order,
      purchaseAmount: '1999.00',
      ratePercent: '5.00',
      cashback: '99.95',
      networkSourceId: admitad.id,
      networkCommission: '140.50',
      state: 'pending',
    });
    const earningId = first.json().id;
    expect(await eventsOf(earningId)).toEqual([
      {
        type: 'PurchaseRecorded',
        payload: {
          merchantId: storeId,
          couponId: admitad.couponId,
          userId: shopper.id,
          purchaseAmountPaise: 199900,
          cashbackPaise: 9995,
          networkSourceId: admitad.id,
        },
      },
    ]);

    // The network repeats itself: the same record, nothing written, no event.
    const events = await outboxCount();
    const repeat = await admitadGet(fields);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual(first.json());
    const unsaid = await admitadGet({ subid: clickId, order_id: order, order_sum: '1999' });
    expect(unsaid.statusCode).toBe(200);
    expect(unsaid.json().state).toBe('pending');
    expect(await outboxCount()).toBe(events);

    // The shopper sees it in their history.
    const history = (await inject('GET', '/api/me/earnings', shopper.bearer)).json();
    expect(history.purchaseHistory).toContainEqual(
      expect.objectContaining({ id: earningId, state: 'pending', cashback: '99.95' }),
    );
  });

  it('approved confirms the earning once, as an admin’s confirmation would; pending after it is refused', async () => {
    const { clickId } = await clickOut(admitad.couponId);
    const order = nextOrder();
    const base = { subid: clickId, order_id: order, order_sum: '1000', payment_sum: '70' };
    expect((await admitadGet({ ...base, status: 'new' })).statusCode).toBe(201);
    const approved = await admitadGet({ ...base, payment_sum: '75.00', status: 'Approved' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      state: 'confirmed',
      networkCommission: '75.00',
      cashback: '50.00',
    });
    expect(approved.json().confirmedAt).not.toBeNull();
    const earningId = approved.json().id;
    expect((await eventsOf(earningId)).map((event: { type: string }) => event.type)).toEqual([
      'PurchaseRecorded',
      'CashbackConfirmed',
    ]);

    const events = await outboxCount();
    const again = await admitadGet({ ...base, status: 'approved_but_stalled' });
    expect(again.statusCode).toBe(200);
    expect(again.json().state).toBe('confirmed');
    expect(await outboxCount()).toBe(events);

    const back = await admitadGet({ ...base, status: 'pending' });
    expect(back.statusCode).toBe(409);
    expect(back.json().message).toBe(EARNINGS.illegalTransition('confirmed', 'pending'));
    expect(await outboxCount()).toBe(events);
  });

  it('by POST form with Cuelinks’ fields; rejected cancels the earning, and nothing moves it after', async () => {
    const { clickId } = await clickOut(cuelinks.couponId);
    const transaction = nextOrder();
    const post = (status: string) =>
      inject(
        'POST',
        `/api/postbacks/networks/${cuelinks.id}?token=${encodeURIComponent(cuelinks.secret)}`,
        { 'content-type': 'application/x-www-form-urlencoded' },
        query({
          subid: clickId,
          transaction_id: transaction,
          sale_amount: '2500.50',
          commission: '125',
          status,
        }),
      );
    const first = await post('pending');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      state: 'pending',
      networkSourceId: cuelinks.id,
      purchaseAmount: '2500.50',
    });
    const rejected = await post('rejected');
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().state).toBe('cancelled');
    expect(await eventsOf(first.json().id)).toEqual([
      expect.objectContaining({ type: 'PurchaseRecorded' }),
      { type: 'EarningCancelled', payload: { kind: 'cashback', from: 'pending' } },
    ]);
    const late = await post('validated');
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(EARNINGS.illegalTransition('cancelled', 'confirmed'));
  });

  it('a first report already approved or declined records the purchase and moves it at once', async () => {
    const { clickId } = await clickOut(admitad.couponId);
    const answer = await admitadGet({
      subid: clickId,
      order_id: nextOrder(),
      order_sum: '500',
      status: 'declined',
    });
    expect(answer.statusCode).toBe(201);
    expect(answer.json().state).toBe('cancelled');
    expect((await eventsOf(answer.json().id)).map((event: { type: string }) => event.type)).toEqual([
      'PurchaseRecorded',
      'EarningCancelled',
    ]);
  });

  it('by POST JSON signed with the source’s secret needs no token; the same order id of another source is another purchase', async () => {
    const { clickId } = await clickOut(cuelinks.couponId);
    const order = nextOrder();
    const body = JSON.stringify({
      subid: clickId,
      transaction_id: order,
      sale_amount: 300,
      commission: 9.5,
      status: 'pending',
    });
    const signature = `sha256=${createHmac('sha256', cuelinks.secret).update(body).digest('hex')}`;
    const signed = await inject(
      'POST',
      `/api/postbacks/networks/${cuelinks.id}`,
      { 'content-type': 'application/json', 'x-signature': signature },
      body,
    );
    expect(signed.statusCode).toBe(201);
    expect(signed.json()).toMatchObject({ purchaseAmount: '300.00', networkCommission: '9.50' });
    const badSignature = await inject(
      'POST',
      `/api/postbacks/networks/${cuelinks.id}`,
      { 'content-type': 'application/json', 'x-signature': `sha256=${'0'.repeat(64)}` },
      body,
    );
    expect(badSignature.statusCode).toBe(401);

    // Admitad's order of the same number, through its own click: a purchase of its own.
    const admitadClick = (await clickOut(admitad.couponId)).clickId;
    const other = await admitadGet({ subid: admitadClick, order_id: order, order_sum: '300' });
    expect(other.statusCode).toBe(201);
    expect(other.json().id).not.toBe(signed.json().id);
  });

  it('is refused, changing nothing: unknown source, bad token, unknown or foreign click, another click for an order, malformed fields', async () => {
    const { clickId } = await clickOut(admitad.couponId);
    const anonymous = (await clickOut(admitad.couponId, false)).clickId;
    const ownStoreClick = (await clickOut(ownCouponId)).clickId;
    const cuelinksClick = (await clickOut(cuelinks.couponId)).clickId;
    const order = nextOrder();
    const good = { subid: clickId, order_id: order, order_sum: '1000' };
    expect((await admitadGet(good)).statusCode).toBe(201);
    const earnings = await earningsCount();
    const events = await changeEvents();

    const refusals: Array<
      [Promise<{ statusCode: number; json(): { message: string; errors?: unknown } }>, number, string]
    > = [
      [
        inject('GET', `/api/postbacks/networks/999999?${query({ token: admitad.secret, ...good })}`),
        404,
        FEED_POSTBACK_MESSAGES.unknownSource,
      ],
      [
        inject('GET', `/api/postbacks/networks/abc?${query(good)}`),
        404,
        FEED_POSTBACK_MESSAGES.unknownSource,
      ],
      [admitadGet(good, 'not-the-secret'), 401, FEED_POSTBACK_MESSAGES.badToken],
      [admitadGet(good, cuelinks.secret), 401, FEED_POSTBACK_MESSAGES.badToken],
      [
        inject('GET', `/api/postbacks/networks/${admitad.id}?${query(good)}`),
        401,
        FEED_POSTBACK_MESSAGES.badToken,
      ],
      [
        admitadGet({ ...good, order_id: nextOrder(), subid: 'AAAAAAAAAAAAAAAAAAAAAA' }),
        404,
        FEED_POSTBACK_MESSAGES.unknownClick,
      ],
      [
        admitadGet({ ...good, order_id: nextOrder(), subid: 'not a click' }),
        400,
        FEED_POSTBACK_MESSAGES.clickId,
      ],
      [
        admitadGet({ ...good, order_id: nextOrder(), subid: cuelinksClick }),
        404,
        FEED_POSTBACK_MESSAGES.otherSourceClick,
      ],
      [
        admitadGet({ ...good, order_id: nextOrder(), subid: ownStoreClick }),
        404,
        FEED_POSTBACK_MESSAGES.otherSourceClick,
      ],
      [admitadGet({ ...good, order_id: nextOrder(), subid: anonymous }), 422, POSTBACK.anonymousClick],
      [
        admitadGet({ ...good, subid: (await clickOut(admitad.couponId)).clickId }),
        409,
        FEED_POSTBACK_MESSAGES.orderOtherClick,
      ],
      [
        admitadGet({ ...good, order_id: nextOrder(), order_sum: '1,000.00' }),
        400,
        FEED_POSTBACK_MESSAGES.orderAmount,
      ],
      [
        admitadGet({ ...good, order_id: nextOrder(), order_sum: '-5' }),
        400,
        FEED_POSTBACK_MESSAGES.orderAmount,
      ],
      [
        admitadGet({ ...good, order_id: nextOrder(), order_sum: '0' }),
        400,
        FEED_POSTBACK_MESSAGES.orderAmount,
      ],
      [
        admitadGet({ ...good, order_id: nextOrder(), order_sum: '12.345' }),
        400,
        FEED_POSTBACK_MESSAGES.orderAmount,
      ],
      [admitadGet({ subid: clickId, order_id: nextOrder() }), 400, FEED_POSTBACK_MESSAGES.orderAmount],
      [
        admitadGet({ ...good, order_id: nextOrder(), payment_sum: 'lots' }),
        400,
        FEED_POSTBACK_MESSAGES.commission,
      ],
      [admitadGet({ ...good, order_id: '' }), 400, FEED_POSTBACK_MESSAGES.orderId],
      [admitadGet({ ...good, order_id: 'x'.repeat(101) }), 400, FEED_POSTBACK_MESSAGES.orderId],
      [
        admitadGet({ ...good, order_id: nextOrder(), status: 'maybe' }),
        400,
        FEED_POSTBACK_MESSAGES.status([
          ...FEED_POSTBACK_PRESETS['admitad-json'].statuses.pending,
          ...FEED_POSTBACK_PRESETS['admitad-json'].statuses.approved,
          ...FEED_POSTBACK_PRESETS['admitad-json'].statuses.declined,
        ]),
      ],
      [admitadGet({ ...good, order_id: nextOrder(), currency: 'USD' }), 422, FEED_POSTBACK_MESSAGES.currency],
      [
        inject(
          'GET',
          `/api/postbacks/networks/${admitad.id}?${query({ token: admitad.secret, ...good })}&order_id=again`,
        ),
        400,
        FEED_POSTBACK_MESSAGES.repeated('order_id'),
      ],
      [
        inject(
          'POST',
          `/api/postbacks/networks/${admitad.id}?token=${encodeURIComponent(admitad.secret)}`,
          { 'content-type': 'application/json' },
          JSON.stringify([good]),
        ),
        400,
        FEED_POSTBACK_MESSAGES.unsupportedBody,
      ],
    ];
    for (const [request, status, message] of refusals) {
      const answer = await request;
      expect({ status: answer.statusCode, message: answer.json().message }).toEqual({ status, message });
    }
    expect(await earningsCount()).toBe(earnings);
    expect(await changeEvents()).toBe(events);
  });

  it('for a store an admin hid is refused with 403, a new purchase or a status, and changes nothing', async () => {
    const { clickId } = await clickOut(admitad.couponId);
    const order = nextOrder();
    const fields = { subid: clickId, order_id: order, order_sum: '900.00', status: 'pending' };
    expect((await admitadGet(fields)).statusCode).toBe(201);
    await admin('PUT', `/api/admin/stores/${storeId}`, { hidden: true });
    const [earnings, events] = [await earningsCount(), await changeEvents()];

    const fresh = await admitadGet({ ...fields, order_id: nextOrder() });
    const approved = await admitadGet({ ...fields, status: 'approved' });
    for (const answer of [fresh, approved]) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json().message).toBe(POSTBACK.merchantHidden);
    }
    expect([await earningsCount(), await changeEvents()]).toEqual([earnings, events]);
    await admin('PUT', `/api/admin/stores/${storeId}`, { hidden: false });
    expect((await admitadGet({ ...fields, status: 'approved' })).json().state).toBe('confirmed');
  });
});

describe('a source’s postback mapping', () => {
  it('comes from the format’s preset; the admin sees the address with its token and changes the fields’ names', async () => {
    const record = (await admin('GET', `/api/admin/feed-sources/${cuelinks.id}`)).json();
    expect(record.postbackMapping).toEqual(FEED_POSTBACK_PRESETS['cuelinks-json']);
    expect(record.postbackUrl).toBe(
      `${market.test.environment.API_URL}/api/postbacks/networks/${cuelinks.id}?token=${encodeURIComponent(cuelinks.secret)}`,
    );
    // The list carries neither the secret nor the address.
    const list = await admin('GET', '/api/admin/feed-sources');
    expect(list.body).not.toContain(cuelinks.secret);

    const mapping = {
      fields: {
        clickId: 'sub_id',
        orderId: 'txn',
        orderAmount: 'amount',
        commission: null,
        status: 'state',
        category: 'product_category',
        reason: 'note',
      },
      statuses: { pending: ['open'], approved: ['ok', 'OK '], declined: ['void'] },
    };
    const saved = await admin('PUT', `/api/admin/feed-sources/${cuelinks.id}`, { postbackMapping: mapping });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().postbackMapping).toEqual({
      fields: {
        clickId: 'sub_id',
        orderId: 'txn',
        orderAmount: 'amount',
        commission: null,
        status: 'state',
        currency: null,
        category: 'product_category',
        reason: 'note',
      },
      statuses: { pending: ['open'], approved: ['ok', 'OK'], declined: ['void'] },
    });
    const [event] = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'FeedSourceUpdated' AND aggregate_id = $1 ORDER BY position DESC LIMIT 1",
      [String(cuelinks.id)],
    );
    expect(event.payload.changed).toEqual(['postbackMapping']);

    // The category the network names earns the store's rate for it, as it was at the click.
    await admin('PUT', `/api/admin/cashback-rates/${storeId}`, {
      categories: [{ name: 'Skin Care', rate: { percent: '9' } }],
    });
    const { clickId } = await clickOut(cuelinks.couponId);
    const url = (fields: Record<string, string>) =>
      `/api/postbacks/networks/${cuelinks.id}?${query({ token: cuelinks.secret, ...fields })}`;
    const order = nextOrder();
    const opened = await inject(
      'GET',
      url({ sub_id: clickId, txn: order, amount: '10', state: 'open', product_category: 'skin care' }),
    );
    expect(opened.statusCode).toBe(201);
    expect(opened.json()).toMatchObject({ ratePercent: '9.00', cashback: '0.90' });
    const ok = await inject('GET', url({ sub_id: clickId, txn: order, amount: '10', state: 'ok' }));
    expect(ok.json().state).toBe('confirmed');
    // A declined purchase keeps the network's reason, which its shopper reads on its timeline.
    const declinedOrder = nextOrder();
    const tooLong = await inject(
      'GET',
      url({ sub_id: clickId, txn: declinedOrder, amount: '10', state: 'void', note: 'x'.repeat(501) }),
    );
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors).toEqual({ note: [FEED_POSTBACK_MESSAGES.reason] });
    const reason = 'Order returned by the customer';
    const declined = await inject(
      'GET',
      url({ sub_id: clickId, txn: declinedOrder, amount: '10', state: 'void', note: reason }),
    );
    expect(declined.json()).toMatchObject({ state: 'cancelled', cancelReason: reason });
    const timeline = await inject('GET', `/api/me/earnings/${declined.json().id}`, shopper.bearer);
    expect(timeline.json()).toMatchObject({ state: 'cancelled', cancelReason: reason });
    expect(timeline.json().steps.map((step: { step: string }) => step.step)).toEqual([
      'clicked',
      'tracked',
      'pending',
      'cancelled',
    ]);
    expect((await eventsOf(declined.json().id)).at(-1)).toMatchObject({
      type: 'EarningCancelled',
      payload: { reason },
    });
    // The old names say nothing now.
    const old = await inject('GET', url({ subid: clickId, transaction_id: nextOrder(), sale_amount: '10' }));
    expect(old.statusCode).toBe(400);
    expect(old.json().errors).toEqual({ sub_id: [FEED_POSTBACK_MESSAGES.clickId] });

    // Changing the format without a mapping takes the new format's preset.
    const reformatted = await admin('PUT', `/api/admin/feed-sources/${cuelinks.id}`, {
      format: 'admitad-json',
    });
    expect(reformatted.json().postbackMapping).toEqual(FEED_POSTBACK_PRESETS['admitad-json']);
    await admin('PUT', `/api/admin/feed-sources/${cuelinks.id}`, {
      format: 'cuelinks-json',
      postbackMapping: FEED_POSTBACK_PRESETS['cuelinks-json'],
    });
  });

  it('is refused with the rules’ messages when a field is missing or misnamed or a word says two statuses', async () => {
    const put = (postbackMapping: unknown) =>
      admin('PUT', `/api/admin/feed-sources/${admitad.id}`, { postbackMapping });
    const preset = FEED_POSTBACK_PRESETS['admitad-json'];
    const missing = await put({ ...preset, fields: { ...preset.fields, orderId: '' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({
      'postbackMapping.fields.orderId': [FEED_POSTBACK_MESSAGES.fieldRequired('orderId')],
    });
    const token = await put({ ...preset, fields: { ...preset.fields, clickId: 'token' } });
    expect(token.json().errors).toEqual({
      'postbackMapping.fields.clickId': [FEED_POSTBACK_MESSAGES.fieldName],
    });
    const spaced = await put({ ...preset, fields: { ...preset.fields, status: 'the status' } });
    expect(spaced.json().errors).toEqual({
      'postbackMapping.fields.status': [FEED_POSTBACK_MESSAGES.fieldName],
    });
    const empty = await put({ ...preset, statuses: { ...preset.statuses, declined: [] } });
    expect(empty.json().errors).toEqual({
      'postbackMapping.statuses.declined': [FEED_POSTBACK_MESSAGES.statusWords],
    });
    const twice = await put({
      ...preset,
      statuses: { ...preset.statuses, declined: ['declined', 'PENDING'] },
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errors).toEqual({
      'postbackMapping.statuses': [FEED_POSTBACK_MESSAGES.statusTwice('PENDING')],
    });
    const record = (await admin('GET', `/api/admin/feed-sources/${admitad.id}`)).json();
    expect(record.postbackMapping).toEqual(preset);

    // The mapping it has, sent again (its keys in another order than the database keeps): no change.
    const same = await put({ statuses: preset.statuses, fields: { ...preset.fields } });
    expect(same.statusCode).toBe(200);
    const [event] = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'FeedSourceUpdated' AND aggregate_id = $1 ORDER BY position DESC LIMIT 1",
      [String(admitad.id)],
    );
    expect(event.payload.changed).toEqual([]);
  });
});

describe('the postback token', () => {
  it('is in no log line, though the addresses that carried it are logged', async () => {
    // A rotated secret: the old one stops working, the new one works.
    const { clickId } = await clickOut(admitad.couponId);
    const rotated = await admin('POST', `/api/admin/feed-sources/${admitad.id}/postback-secret/rotate`);
    const fresh = rotated.json().postbackSecret as string;
    expect(fresh).not.toBe(admitad.secret);
    const fields = { subid: clickId, order_id: nextOrder(), order_sum: '10' };
    expect((await admitadGet(fields)).statusCode).toBe(401);
    expect((await admitadGet(fields, fresh)).statusCode).toBe(201);

    const lines = market.api.logs.map((line) => JSON.stringify(line));
    const postbackLines = lines.filter((line) => line.includes('/api/postbacks/networks/'));
    expect(postbackLines.length).toBeGreaterThan(10);
    expect(postbackLines.some((line) => line.includes('token=[redacted]'))).toBe(true);
    for (const secret of [admitad.secret, cuelinks.secret, fresh, encodeURIComponent(fresh)]) {
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
    }
    admitad.secret = fresh;
  });
});
