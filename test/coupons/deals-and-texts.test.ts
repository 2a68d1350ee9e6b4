import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AddCoupon, type CouponDraft, ExpireDueCoupons } from '@offers/api/commands';
import { COUPON_FORM, COUPON_TEXT_RULES } from '@offers/api/rules';
import { CouponListingProjection } from '@offers/workers/consumers';
import { EventDispatcher, rebuildProjection } from '@offers/workers/events';
import { registerAndSignInMerchant, type Session } from '../support/accounts.js';
import { couponForm } from '../support/coupons.js';
import {
  approve,
  commandsOf,
  listed,
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
  untilListed,
} from '../support/marketplace.js';

/**
 * Coupons that come without a merchant's form (feeds of affiliate networks): deals without a code,
 * open-ended, without values, exclusive; and every coupon's texts in Hindi and Telugu.
 */

let market: Marketplace;
let store: Session;

beforeAll(async () => {
  market = await startMarketplace('deals and coupon texts');
  ({ session: store } = await registerAndSignInMerchant(market.api.baseUrl, { brandName: 'Chai Point' }));
}, 60_000);

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

function draft(overrides: Partial<CouponDraft> = {}): CouponDraft {
  return {
    code: null,
    title: 'Free masala chai with every order',
    description: 'On orders through the app, all over India.',
    terms: null,
    percentage: null,
    discountValue: null,
    expiryDate: null,
    exclusive: true,
    merchantUrl: 'https://chai.example.in/offers?aff=1',
    categoryIds: [1],
    texts: {
      hi: { title: 'हर ऑर्डर पर मुफ़्त मसाला चाय', description: 'ऐप से किए गए ऑर्डर पर, पूरे भारत में।', terms: null },
    },
    ...overrides,
  };
}

const add = (overrides: Partial<CouponDraft> = {}, slotId = 1, publish = true) =>
  commandsOf(market).execute(new AddCoupon(store.id, slotId, draft(overrides), publish));

const eventsOf = (couponId: number) =>
  market.api.dataSource.query(
    "SELECT type, payload FROM outbox WHERE aggregate_type = 'Coupon' AND aggregate_id = $1 ORDER BY position",
    [String(couponId)],
  ) as Promise<Array<{ type: string; payload: Record<string, unknown> }>>;

async function cardOf(couponId: number, query = '') {
  await untilListed(market, couponId);
  return (await listed(market, query)).data.find((card) => card.id === couponId)!;
}

describe('a deal without a code, open-ended, exclusive, added without a form', () => {
  it('goes live in the slot at once, with its events carrying its texts', async () => {
    const { couponId, status } = await add();

    expect(status).toBe('live');
    const events = await eventsOf(couponId);
    expect(events.map((event) => event.type)).toEqual(['CouponSubmitted', 'CouponApproved']);
    expect(events[0]!.payload).toMatchObject({
      hasCode: false,
      exclusive: true,
      expiryDate: null,
      texts: { hi: { title: 'हर ऑर्डर पर मुफ़्त मसाला चाय' } },
    });
    expect(events[1]!.payload).toMatchObject({
      slotId: 1,
      texts: { hi: { title: 'हर ऑर्डर पर मुफ़्त मसाला चाय' } },
    });
  });

  it('is a card that says it is a deal, exclusive, without an end or values, with its Hindi texts', async () => {
    const { couponId } = await add({ title: 'Deal card chai' });

    expect(await cardOf(couponId)).toMatchObject({
      title: 'Deal card chai',
      hasCode: false,
      exclusive: true,
      expiresAt: null,
      percentage: null,
      discountValue: null,
      merchantUrl: 'https://chai.example.in/offers?aff=1',
      texts: { hi: { title: 'हर ऑर्डर पर मुफ़्त मसाला चाय', description: 'ऐप से किए गए ऑर्डर पर, पूरे भारत में।' } },
    });
  });

  it('reveals no code, only where to use it', async () => {
    const { couponId } = await add({ title: 'Reveal a deal' });
    await untilListed(market, couponId);

    const reveal = await inject('POST', `/api/coupons/${couponId}/reveal`);

    expect(reveal.statusCode).toBe(200);
    expect(reveal.json()).toEqual({ code: null, merchantUrl: 'https://chai.example.in/offers?aff=1' });
  });

  it('is never swept: an open-ended coupon stays live and listed, its seat held', async () => {
    const { couponId } = await add({ title: 'Open-ended chai' });
    await untilListed(market, couponId);

    await commandsOf(market).execute(new ExpireDueCoupons());
    await untilEventsProcessed(market);

    expect((await eventsOf(couponId)).map((event) => event.type)).not.toContain('CouponExpired');
    expect((await inject('GET', `/api/admin/coupons/${couponId}`, market.admin)).json()).toMatchObject({
      status: 'live',
      expiryDate: null,
      couponCode: null,
      exclusive: true,
    });
    expect((await listed(market)).data.map((card) => card.id)).toContain(couponId);
    expect(
      await market.api.dataSource.query(
        "SELECT until = 'infinity' AS held FROM slot_seats WHERE coupon_id = $1",
        [couponId],
      ),
    ).toEqual([{ held: true }]);
  });

  it('keeps an end date and a code when it has them, and sorts after valued coupons by "best"', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const valued = await submitCoupon(market, session, { percentage: '5', discountValue: '10' });
    expect((await approve(market, valued)).statusCode).toBe(200);
    const { couponId: bare } = await commandsOf(market).execute(
      new AddCoupon(
        session.id,
        1,
        draft({ title: 'No values here', code: 'CHAI-10', exclusive: false }),
        true,
      ),
    );
    const ending = new Date(Date.now() + 5 * 24 * 3600_000);
    const { couponId: dated } = await commandsOf(market).execute(
      new AddCoupon(session.id, 1, draft({ title: 'Dated deal', percentage: 30, expiryDate: ending }), true),
    );
    await untilListed(market, bare);
    await untilListed(market, dated);

    const best = (await listed(market, `&sort=best&merchant=${session.id}`)).data.map((card) => card.id);
    expect(best).toEqual([dated, valued, bare]);
    const expiring = (await listed(market, `&sort=expiring&merchant=${session.id}`)).data.map(
      (card) => card.id,
    );
    expect(expiring.at(-1)).toBe(bare);
    expect(await cardOf(bare)).toMatchObject({ hasCode: true, exclusive: false, expiresAt: null });
    expect((await cardOf(dated)).expiresAt).toBe(ending.toISOString());
    expect((await inject('POST', `/api/coupons/${bare}/reveal`)).json().code).toBe('CHAI-10');
  });

  it('waits for review when its slot is full, or when not published', async () => {
    const placed = [];
    for (let index = 0; index < 5; index++)
      placed.push((await add({ title: `Hero deal ${index}` }, 3)).status);
    const unpublished = await add({ title: 'For review' }, 1, false);

    expect(placed).toEqual(['live', 'live', 'live', 'live', 'pending']);
    expect(unpublished.status).toBe('pending');
    expect((await eventsOf(unpublished.couponId)).map((event) => event.type)).toEqual(['CouponSubmitted']);
  });

  it('keeps the rules of a code and of the texts, changing nothing when refused', async () => {
    const before = await market.api.dataSource.query('SELECT count(*)::int AS n FROM coupons');

    await expect(add({ code: 'no spaces allowed' })).rejects.toMatchObject({
      response: { errors: { code: [COUPON_FORM.couponCode.invalid] } },
    });
    await expect(add({ title: 'x'.repeat(51) })).rejects.toMatchObject({
      response: { errors: { title: [COUPON_FORM.title.tooLong] } },
    });
    await expect(add({ categoryIds: [999] })).rejects.toMatchObject({
      response: { errors: { categoryIds: [COUPON_FORM.categoryIds.unknown] } },
    });
    expect(await market.api.dataSource.query('SELECT count(*)::int AS n FROM coupons')).toEqual(before);
  });
});

describe("a merchant's coupon in Hindi and Telugu", () => {
  const hindi = {
    titleHi: 'फेस सीरम पर 25% छूट',
    descriptionHi: 'पूरे स्टोर के सीरम पर।',
    termsHi: 'हर ग्राहक एक बार।',
  };

  it('still needs a code, and a title in another language needs its description', async () => {
    const { couponCode: _code, ...withoutCode } = couponForm();
    const noCode = await inject('POST', '/api/merchant/coupons', store.bearer, withoutCode);
    const titleAlone = await inject(
      'POST',
      '/api/merchant/coupons',
      store.bearer,
      couponForm({ titleTe: 'వేప' }),
    );
    const tooLong = await inject(
      'POST',
      '/api/merchant/coupons',
      store.bearer,
      couponForm({ titleHi: 'क'.repeat(51), descriptionHi: 'ठीक' }),
    );

    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().errors.couponCode).toEqual([COUPON_FORM.couponCode.required]);
    expect(titleAlone.statusCode).toBe(400);
    expect(titleAlone.json().errors).toEqual({
      descriptionTe: [COUPON_TEXT_RULES.descriptionRequired('Telugu')],
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors).toEqual({ titleHi: [COUPON_TEXT_RULES.titleTooLong('Hindi')] });
  });

  it('stores them, edits and removes them with the events saying so, and shows them on the card after a rebuild', async () => {
    const couponId = await submitCoupon(market, store, { title: 'Serum sale', ...hindi });
    const stored = await inject('GET', `/api/merchant/coupons/${couponId}`, store.bearer);
    expect(stored.json()).toMatchObject({ ...hindi, titleTe: null, descriptionTe: null, exclusive: false });

    const edited = await inject('PUT', `/api/merchant/coupons/${couponId}`, store.bearer, {
      titleHi: 'सीरम सेल',
      titleTe: 'సీరమ్ సేల్',
      descriptionTe: 'అన్ని సీరమ్‌లపై.',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      titleHi: 'सीरम सेल',
      descriptionHi: hindi.descriptionHi,
      titleTe: 'సీరమ్ సేల్',
    });
    const removed = await inject('PUT', `/api/merchant/coupons/${couponId}`, store.bearer, {
      titleTe: null,
      descriptionTe: '',
      termsTe: null,
    });
    expect(removed.json()).toMatchObject({ titleTe: null, descriptionTe: null, titleHi: 'सीरम सेल' });
    const events = await eventsOf(couponId);
    expect(events.map((event) => [event.type, Object.keys(event.payload.texts as object)])).toEqual([
      ['CouponSubmitted', ['hi']],
      ['CouponUpdated', ['hi', 'te']],
      ['CouponUpdated', ['hi']],
    ]);

    expect((await approve(market, couponId)).statusCode).toBe(200);
    const texts = {
      hi: { title: 'सीरम सेल', description: hindi.descriptionHi, terms: hindi.termsHi },
    };
    expect((await cardOf(couponId)).texts).toEqual(texts);

    await untilEventsProcessed(market);
    const before = await listed(market, '&sort=newest');
    const projection = market.workers.module
      .get(EventDispatcher)
      .consumers.find((consumer) => consumer instanceof CouponListingProjection)!;
    await rebuildProjection(market.workers.dataSource, projection);
    expect((await listed(market, '&sort=newest')).data).toEqual(before.data);
    expect((await cardOf(couponId)).texts).toEqual(texts);
  });

  it('is found by its Hindi title, in the lists and the suggestions', async () => {
    const couponId = await submitCoupon(market, store, {
      title: 'Herbal shampoo offer',
      titleHi: 'हर्बल शैम्पू ऑफ़र',
      descriptionHi: 'सभी बालों के लिए।',
    });
    expect((await approve(market, couponId)).statusCode).toBe(200);
    await untilListed(market, couponId);

    const found = await listed(market, `&q=${encodeURIComponent('शैम्पू')}`);
    const suggested = await inject('GET', `/api/search/suggest?q=${encodeURIComponent('हर्बल')}`);

    expect(found.data.map((card) => card.id)).toEqual([couponId]);
    expect(suggested.json().coupons).toEqual([
      expect.objectContaining({
        id: couponId,
        title: 'Herbal shampoo offer',
        titles: { hi: 'हर्बल शैम्पू ऑफ़र' },
      }),
    ]);
  });
});
