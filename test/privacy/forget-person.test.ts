import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PERSON_FORGETTERS, type PersonToForget } from '@offers/api/read-models';
import sharp from 'sharp';
import { registerAndSignInMerchant, registerAndSignInUser, type Session } from '../support/accounts.js';
import { clickOutDaysAgo } from '../support/claims.js';
import { multipart } from '../support/coupons.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { untilEventsProcessed } from '../support/marketplace.js';
import { type CashbackShop, cashbackShopWithStore, confirmedCashback } from '../support/payouts.js';
import { findPersonalValues } from '../support/personal-data.js';
import { eventually } from '../support/test-environment.js';

/**
 * Erasure asks every owner of personal data to forget the person, in one transaction: afterwards
 * none of the person's values is left in any column of any table, the earnings the law keeps keep
 * their amounts and references, and another shopper's data is untouched.
 */
let market: EngagementMarket;
let shop: CashbackShop;

// Every table is scanned, the outbox too: event payloads carry ids, never a person's values.
const NOT_SCANNED: string[] = [];

beforeAll(async () => {
  market = await startEngagementMarket('forgetting a person');
  shop = await cashbackShopWithStore(market, 'Tulsi face wash 20% off', {
    name: 'Tulsi Naturals',
    address: 'Pune',
  });
}, 60_000);

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload: payload as string });

const expectStatus = async (answer: Promise<{ statusCode: number; body: string }>, status: number) => {
  const { statusCode, body } = await answer;
  if (statusCode !== status) throw new Error(`expected ${status}, got ${statusCode}: ${body}`);
};

interface Shopper {
  session: Session;
  name: string;
  email: string;
  mobile: string;
  address: string;
  upiId: string;
  earningId: number;
}

let addresses = 0;
const nextAddress = () => {
  addresses += 1;
  return `10.77.0.${addresses}`;
};

/** A shopper with unique values and data in every feature that holds some. */
async function busyShopper(): Promise<Shopper> {
  const tag = randomBytes(4).toString('hex');
  const name = `Meera Zq${tag}`;
  const address = `Flat ${tag}, Lotus Lane, Pune`;
  const { registration, session } = await registerAndSignInUser(market.api.baseUrl, {
    userName: name,
    address,
  });
  const email = registration.email as string;
  const mobile = registration.mobileNumber as string;
  const upiId = `meera${tag}@okaxis`;
  const bearer = { ...session.bearer, 'x-forwarded-for': nextAddress() };

  await expectStatus(inject('POST', '/api/me/follows', bearer, { merchantId: shop.merchant.id }), 201);
  await expectStatus(inject('POST', `/api/coupons/${shop.couponId}/votes`, bearer, { worked: true }), 202);
  const clickId = await clickOutDaysAgo(market, shop.couponId, bearer, 2);
  const earningId = await confirmedCashback(market, shop, session, '400');
  await expectStatus(inject('POST', '/api/me/payouts', bearer, { amount: '300', upiId }), 201);
  const invoice = await sharp({ create: { width: 40, height: 20, channels: 3, background: 'white' } })
    .jpeg()
    .toBuffer();
  const form = multipart(
    { clickId, orderId: `TN-${tag}`, orderDate: new Date().toISOString().slice(0, 10), amount: '250' },
    { invoice: { name: 'invoice.jpg', type: 'image/jpeg', bytes: invoice } },
  );
  await expectStatus(
    market.api.http.inject({
      method: 'POST',
      url: '/api/me/missing-cashback-claims',
      headers: { ...bearer, ...form.headers },
      payload: form.payload,
    }),
    201,
  );
  await expectStatus(inject('POST', '/api/newsletter', { 'x-forwarded-for': nextAddress() }, { email }), 202);
  await expectStatus(
    inject(
      'POST',
      '/api/contact',
      { 'x-forwarded-for': nextAddress() },
      { name, email, mobile, msg: `Call me, ${name}` },
    ),
    201,
  );
  await eventually(async () => market.smtp.to(email).length > 0, `a mail to ${email}`);
  return { session, name, email, mobile, address, upiId, earningId };
}

const uniqueValues = (shopper: Shopper) => [
  shopper.name,
  shopper.email,
  shopper.mobile,
  shopper.address,
  shopper.upiId,
];

async function forget(person: PersonToForget) {
  return market.api.dataSource.transaction(async (manager) => {
    const outcomes: Record<string, unknown> = {};
    for (const { owner, forget } of PERSON_FORGETTERS) outcomes[owner] = await forget(manager, person);
    return outcomes;
  });
}

describe('forgetting a shopper', () => {
  it('leaves none of their values in any table, keeps their earnings, and touches nobody else', async () => {
    const forgotten = await busyShopper();
    const other = await busyShopper();
    await untilEventsProcessed(market, 20_000);
    const scanned = await findPersonalValues(market.api.dataSource, uniqueValues(forgotten), NOT_SCANNED);
    expect(scanned).toEqual(expect.arrayContaining([expect.stringMatching(/^users\./)]));
    const [earningBefore] = await market.api.dataSource.query(
      'SELECT amount_paise, purchase_reference, state FROM earnings WHERE id = $1',
      [forgotten.earningId],
    );
    const otherBefore = await findPersonalValues(market.api.dataSource, uniqueValues(other), NOT_SCANNED);

    const outcomes = await forget({
      kind: 'shopper',
      id: forgotten.session.id,
      email: forgotten.email,
      mobile: forgotten.mobile,
      pseudonym: `forgotten-${randomUUID()}`,
    });

    expect(outcomes.identity).toEqual(
      expect.objectContaining({
        anonymised: { users: 1 },
        removed: expect.objectContaining({ sessions: 1 }),
      }),
    );
    // The three consents recorded at registration (none ticked), history and all.
    expect(outcomes.privacy).toEqual({ removed: { consents: 3 }, anonymised: { grievances: 0 } });
    expect(outcomes.claims).toEqual({
      removed: { private_media: 1 },
      anonymised: { missing_cashback_claims: 1 },
    });
    expect(await findPersonalValues(market.api.dataSource, uniqueValues(forgotten), NOT_SCANNED)).toEqual([]);
    const [earningAfter] = await market.api.dataSource.query(
      'SELECT amount_paise, purchase_reference, state FROM earnings WHERE id = $1',
      [forgotten.earningId],
    );
    expect(earningAfter).toEqual(earningBefore);
    const [payout] = await market.api.dataSource.query(
      'SELECT amount_paise FROM payouts WHERE user_id = $1',
      [forgotten.session.id],
    );
    expect(Number(payout.amount_paise)).toBe(30_000);
    const [{ votes }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS votes FROM coupon_votes WHERE coupon_id = $1',
      [shop.couponId],
    );
    expect(votes).toBe(2);
    expect(await findPersonalValues(market.api.dataSource, uniqueValues(other), NOT_SCANNED)).toEqual(
      otherBefore,
    );
    expect((await inject('GET', '/api/me/follows', other.session.bearer)).json()).toHaveLength(1);
    expect((await inject('GET', '/api/me/follows', forgotten.session.bearer)).statusCode).toBe(401);
  }, 120_000);
});

describe('forgetting a merchant', () => {
  it('leaves none of their contact or sign-in values, and keeps the store brand', async () => {
    const tag = randomBytes(4).toString('hex');
    const address = `Godown ${tag}, Ring Road, Surat`;
    const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl, {
      address,
      brandName: `Zari${tag}`,
    });
    await untilEventsProcessed(market, 20_000);
    const values = [registration.email, registration.mobile, registration.userName, address] as string[];
    expect(await findPersonalValues(market.api.dataSource, values, NOT_SCANNED)).not.toEqual([]);

    await forget({
      kind: 'merchant',
      id: session.id,
      email: registration.email as string,
      mobile: registration.mobile as string,
      pseudonym: `forgotten-${randomUUID()}`,
    });

    expect(await findPersonalValues(market.api.dataSource, values, NOT_SCANNED)).toEqual([]);
    const [merchant] = await market.api.dataSource.query('SELECT brand_name FROM merchants WHERE id = $1', [
      session.id,
    ]);
    expect(merchant.brand_name).toBe(`Zari${tag}`);
  }, 60_000);
});
