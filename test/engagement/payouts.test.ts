import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoCouponsSeed } from '@offers/api/demo/coupons';
import { DEMO_SHOPPER, demoPayoutsSeed } from '@offers/api/demo/payouts';
import { PAYOUT } from '@offers/api/rules/payouts';
import {
  BEARER_SIGN_IN,
  registerAndSignInMerchant,
  registerAndSignInUser,
  type Session,
  sessionFrom,
} from '../support/accounts.js';
import type { HttpResponse } from '../support/api-app.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop, confirmedCashback } from '../support/payouts.js';

let market: Marketplace;
let shop: CashbackShop;

beforeAll(async () => {
  market = await startMarketplace('engagement payouts');
  shop = await cashbackShop(market);
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

/** A shopper of its own with this much confirmed cashback (and nothing else). */
async function shopperWith(rupees: string): Promise<Session> {
  const { session } = await registerAndSignInUser(market.api.baseUrl);
  await confirmedCashback(market, shop, session, rupees);
  return session;
}

const balanceOf = async (shopper: Session) => (await inject('GET', '/api/me/balance', shopper.bearer)).json();
const request = (shopper: Session, body: Record<string, unknown>) =>
  inject('POST', '/api/me/payouts', shopper.bearer, body);

/**
 * Sends the command again after a 503 (a bounded wait ran out on a busy machine), as a client
 * would after Retry-After: the 503 changed nothing, so every request ends accepted or refused.
 */
async function settled(send: () => Promise<HttpResponse>): Promise<HttpResponse> {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await send();
    if (answer.statusCode !== 503 || attempt === 10) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const admin = (action: string, id: number, body?: unknown) =>
  inject('POST', `/api/admin/payouts/${id}/${action}`, market.admin, body ?? {});

const outboxTypes = async (payoutId: number) =>
  (
    await market.api.dataSource.query(
      "SELECT type, payload FROM outbox WHERE aggregate_type = 'Payout' AND aggregate_id = $1 ORDER BY position",
      [String(payoutId)],
    )
  ).map((row: { type: string }) => row.type);

describe('asking for a payout', () => {
  it('is for signed-in shoppers only: 401 for a visitor, 403 for a merchant or an admin', async () => {
    const body = { amount: '300', upiId: 'asha@okaxis' };
    expect((await inject('POST', '/api/me/payouts', {}, body)).statusCode).toBe(401);
    expect((await inject('GET', '/api/me/balance')).statusCode).toBe(401);
    expect((await inject('GET', '/api/me/payouts')).statusCode).toBe(401);
    const merchant = (await registerAndSignInMerchant(market.api.baseUrl)).session;
    expect((await inject('POST', '/api/me/payouts', merchant.bearer, body)).statusCode).toBe(403);
    expect((await inject('POST', '/api/me/payouts', market.admin, body)).statusCode).toBe(403);
    expect((await inject('GET', '/api/admin/payouts', merchant.bearer)).statusCode).toBe(403);
    const [{ n }] = await market.api.dataSource.query('SELECT count(*)::int AS n FROM payouts');
    expect(n).toBe(0);
  });

  it('shows the balance: confirmed cashback only, and the minimum from the settings', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    await confirmedCashback(market, shop, session, '400.50');
    await confirmedCashback(market, shop, session, '99.25', { confirm: false });
    expect(await balanceOf(session)).toEqual({
      available: '400.50',
      minimum: '250.00',
      confirmed: '400.50',
      inProgress: '0.00',
      paidOut: '0.00',
    });
  });

  it('refuses amounts below the minimum, above the balance, zero or malformed, with their messages', async () => {
    const shopper = await shopperWith('600');
    const cases: Array<[unknown, string]> = [
      [undefined, PAYOUT.amount.required],
      ['', PAYOUT.amount.required],
      ['12.345', PAYOUT.amount.invalid],
      ['-300', PAYOUT.amount.invalid],
      ['abc', PAYOUT.amount.invalid],
      ['0', PAYOUT.amount.zero],
      ['0.00', PAYOUT.amount.zero],
      ['249.99', PAYOUT.amount.belowMinimum],
      ['600.01', PAYOUT.amount.aboveBalance],
      [100_000, PAYOUT.amount.aboveBalance],
    ];
    for (const [amount, message] of cases) {
      const answer = await request(shopper, { amount, upiId: 'asha@okaxis' });
      expect([amount, answer.statusCode, answer.json().errors]).toEqual([amount, 400, { amount: [message] }]);
    }
    expect((await balanceOf(shopper)).available).toBe('600.00');
  });

  it('checks the UPI ID, account number and IFSC, and asks for one destination', async () => {
    const shopper = await shopperWith('1000');
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{}, { upiId: [PAYOUT.destination.required] }],
      [{ upiId: '' }, { upiId: [PAYOUT.upiId.required] }],
      [{ upiId: 'asha.rao' }, { upiId: [PAYOUT.upiId.invalid] }],
      [{ upiId: 'asha@' }, { upiId: [PAYOUT.upiId.invalid] }],
      [{ upiId: 'asha rao@okaxis' }, { upiId: [PAYOUT.upiId.invalid] }],
      [{ upiId: null }, { upiId: [PAYOUT.upiId.required] }],
      [
        { accountNumber: '12345678' },
        { ifsc: [PAYOUT.ifsc.required], accountNumber: [PAYOUT.accountNumber.invalid] },
      ],
      [
        { accountNumber: '1234567890123456789', ifsc: 'HDFC0001234' },
        { accountNumber: [PAYOUT.accountNumber.invalid] },
      ],
      [
        { accountNumber: '12345678901A', ifsc: 'HDFC0001234' },
        { accountNumber: [PAYOUT.accountNumber.invalid] },
      ],
      [{ ifsc: 'HDFC0001234' }, { accountNumber: [PAYOUT.accountNumber.required] }],
      [{ accountNumber: '123456789012', ifsc: 'HDFC1001234' }, { ifsc: [PAYOUT.ifsc.invalid] }],
      [{ accountNumber: '123456789012', ifsc: 'HDF0001234' }, { ifsc: [PAYOUT.ifsc.invalid] }],
      [
        { upiId: 'asha@okaxis', accountNumber: '123456789012', ifsc: 'HDFC0001234' },
        { upiId: [PAYOUT.destination.both] },
      ],
      [
        { upiId: 'asha@okaxis', accountHolderName: 'A'.repeat(101) },
        { accountHolderName: [PAYOUT.accountHolderName.invalid] },
      ],
    ];
    for (const [destination, errors] of cases) {
      const answer = await request(shopper, { amount: '300', ...destination });
      expect([destination, answer.statusCode, answer.json().errors]).toEqual([destination, 400, errors]);
    }
    expect((await request(shopper, { amount: '300', upiId: 'asha@okaxis', bonus: 1 })).statusCode).toBe(400);
    const [{ n }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM payouts WHERE user_id = $1',
      [shopper.id],
    );
    expect(n).toBe(0);
  });

  it('takes a UPI or bank payout out of the balance; account numbers show their last four digits', async () => {
    const shopper = await shopperWith('1000');
    const upi = await request(shopper, { amount: 250, upiId: '  Asha.Rao@OKHDFCBANK ' });
    expect(upi.statusCode).toBe(201);
    expect(upi.json()).toMatchObject({
      amount: '250.00',
      method: 'upi',
      upiId: 'asha.rao@okhdfcbank',
      destination: 'asha.rao@okhdfcbank',
      state: 'requested',
      message: PAYOUT.requested,
    });
    const bank = await request(shopper, {
      amount: '300.50',
      accountNumber: '5010 0234 5678 91',
      ifsc: 'hdfc0001234',
      accountHolderName: ' Asha Rao ',
    });
    expect(bank.statusCode).toBe(201);
    expect(bank.json()).toMatchObject({
      amount: '300.50',
      method: 'bank',
      accountNumber: 'XXXX7891',
      ifsc: 'HDFC0001234',
      accountHolderName: 'Asha Rao',
      destination: 'XXXX7891 · HDFC0001234',
      state: 'requested',
    });
    expect(await balanceOf(shopper)).toMatchObject({ available: '449.50', inProgress: '550.50' });

    const mine = (await inject('GET', '/api/me/payouts', shopper.bearer)).json();
    expect(mine.total).toBe(2);
    expect(mine.payouts.map((payout: { id: number }) => payout.id)).toEqual([bank.json().id, upi.json().id]);
    expect(JSON.stringify(mine)).not.toContain('50100234567891');
    // The full number is kept for the admins' payout run, and shown only to them.
    const [row] = await market.api.dataSource.query('SELECT account_number FROM payouts WHERE id = $1', [
      bank.json().id,
    ]);
    expect(row.account_number).toBe('50100234567891');
    const forAdmin = (await inject('GET', `/api/admin/payouts/${bank.json().id}`, market.admin)).json();
    expect(forAdmin).toMatchObject({
      accountNumber: '50100234567891',
      destination: 'XXXX7891 · HDFC0001234',
      userId: shopper.id,
      userName: 'Asha Rao',
    });
    expect(await outboxTypes(upi.json().id)).toEqual(['PayoutRequested']);
    const [event] = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'PayoutRequested' AND aggregate_id = $1",
      [String(bank.json().id)],
    );
    expect(event.payload).toEqual({ userId: shopper.id, amountPaise: 30_050, method: 'bank' });
  });

  it('makes one payout of a request sent again with its Idempotency-Key', async () => {
    const shopper = await shopperWith('700');
    const send = () =>
      inject(
        'POST',
        '/api/me/payouts',
        { ...shopper.bearer, 'idempotency-key': 'payout-retry-1' },
        {
          amount: '300',
          upiId: 'asha@okaxis',
        },
      );
    const first = await send();
    const again = await send();
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    expect((await balanceOf(shopper)).available).toBe('400.00');
  });

  it('never takes the balance below zero: of 20 requests at once exactly floor(balance/amount) pass', async () => {
    const shopper = await shopperWith('1000.00');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        settled(() => request(shopper, { amount: '300', upiId: 'asha@okaxis' })),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(3).fill(201), ...Array(17).fill(400)]);
    for (const refused of answers.filter((answer) => answer.statusCode === 400)) {
      expect(refused.json().errors).toEqual({ amount: [PAYOUT.amount.aboveBalance] });
    }
    expect(await balanceOf(shopper)).toMatchObject({ available: '100.00', inProgress: '900.00' });
    const [{ n }] = await market.api.dataSource.query(
      "SELECT count(*)::int AS n FROM outbox WHERE type = 'PayoutRequested' AND payload->>'userId' = $1",
      [String(shopper.id)],
    );
    expect(n).toBe(3);
  });
});

describe('the payout run', () => {
  it('moves requested → processing → paid with the bank reference, and refuses other moves with 409', async () => {
    const shopper = await shopperWith('500');
    const id = (await request(shopper, { amount: '500', upiId: 'asha@okaxis' })).json().id;

    const early = await admin('pay', id, { bankReference: 'UTR000111222' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(PAYOUT.illegalTransition('requested', 'paid'));
    expect((await admin('process', id)).json()).toMatchObject({
      state: 'processing',
      processingAt: expect.any(String),
    });
    const twice = await admin('process', id);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(PAYOUT.illegalTransition('processing', 'processing'));

    const missing = await admin('pay', id, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ bankReference: [PAYOUT.bankReference.required] });
    expect((await admin('pay', id, { bankReference: 'UTR 1' })).json().errors).toEqual({
      bankReference: [PAYOUT.bankReference.invalid],
    });
    const paid = await admin('pay', id, { bankReference: 'UTR000111222' });
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({
      state: 'paid',
      bankReference: 'UTR000111222',
      paidAt: expect.any(String),
    });
    expect((await admin('fail', id, { reason: 'Too late' })).statusCode).toBe(409);
    expect((await admin('process', 999_999)).statusCode).toBe(404);
    expect(await balanceOf(shopper)).toMatchObject({
      available: '0.00',
      paidOut: '500.00',
      inProgress: '0.00',
    });
    expect(await outboxTypes(id)).toEqual(['PayoutRequested', 'PayoutProcessingStarted', 'PayoutPaid']);
    const [event] = await market.api.dataSource.query(
      "SELECT payload FROM outbox WHERE type = 'PayoutPaid' AND aggregate_id = $1",
      [String(id)],
    );
    expect(event.payload).toEqual({ userId: shopper.id, amountPaise: 50_000, bankReference: 'UTR000111222' });
  });

  it('gives a failed payout’s amount back to the balance, from requested or processing; a reason is required', async () => {
    const shopper = await shopperWith('800');
    const first = (await request(shopper, { amount: '300', upiId: 'asha@okaxis' })).json().id;
    const second = (await request(shopper, { amount: '500', upiId: 'asha@okaxis' })).json().id;
    expect((await balanceOf(shopper)).available).toBe('0.00');

    const noReason = await admin('fail', first, { reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().errors).toEqual({ reason: [PAYOUT.reason.required] });
    const failed = await admin('fail', first, { reason: 'The UPI ID does not exist.' });
    expect(failed.json()).toMatchObject({ state: 'failed', failureReason: 'The UPI ID does not exist.' });
    expect((await balanceOf(shopper)).available).toBe('300.00');
    await admin('process', second);
    await admin('fail', second, { reason: 'Account closed.' });
    expect(await balanceOf(shopper)).toMatchObject({
      available: '800.00',
      inProgress: '0.00',
      paidOut: '0.00',
    });
    expect((await admin('process', second)).statusCode).toBe(409);
    expect(await outboxTypes(second)).toEqual(['PayoutRequested', 'PayoutProcessingStarted', 'PayoutFailed']);
    // The shopper sees why.
    const mine = (await inject('GET', '/api/me/payouts', shopper.bearer)).json().payouts;
    expect(mine.map((payout: { failureReason: string }) => payout.failureReason)).toEqual([
      'Account closed.',
      'The UPI ID does not exist.',
    ]);
    // And can ask again.
    expect((await request(shopper, { amount: '800', upiId: 'asha@okicici' })).statusCode).toBe(201);
  });

  it('marks a run paid in bulk, one reference each, all or none', async () => {
    const shopper = await shopperWith('2000');
    const ids: number[] = [];
    for (const amount of ['300', '400', '500']) {
      ids.push((await request(shopper, { amount, upiId: 'asha@okaxis' })).json().id);
    }
    const [a, b, c] = ids as [number, number, number];
    await admin('process', a);
    await admin('process', b);
    const payMany = (payouts: unknown) => inject('POST', '/api/admin/payouts/pay', market.admin, { payouts });

    // c is still requested: nothing is paid.
    const partly = await payMany([
      { id: a, bankReference: 'BULK0000A1' },
      { id: c, bankReference: 'BULK0000C1' },
    ]);
    expect(partly.statusCode).toBe(409);
    expect(partly.json().message).toBe(PAYOUT.aboutPayout(c, PAYOUT.illegalTransition('requested', 'paid')));
    const unknown = await payMany([{ id: 999_999, bankReference: 'BULK0000Z9' }]);
    expect([unknown.statusCode, unknown.json().message]).toEqual([
      404,
      PAYOUT.aboutPayout(999_999, PAYOUT.notFound),
    ]);
    expect((await payMany([])).statusCode).toBe(400);
    expect((await payMany([{ id: a }])).json().errors).toEqual({
      'payouts.0.bankReference': [PAYOUT.bankReference.required],
    });
    const repeated = await payMany([
      { id: a, bankReference: 'BULK0000A1' },
      { id: b, bankReference: 'bulk0000a1' },
    ]);
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().errors).toEqual({ payouts: [PAYOUT.bankReference.repeated] });
    const states = async () =>
      (
        await market.api.dataSource.query('SELECT state FROM payouts WHERE id = ANY($1) ORDER BY id', [ids])
      ).map((row: { state: string }) => row.state);
    expect(await states()).toEqual(['processing', 'processing', 'requested']);

    const paid = await payMany([
      { id: b, bankReference: 'BULK0000B1' },
      { id: a, bankReference: 'BULK0000A1' },
    ]);
    expect(paid.statusCode).toBe(200);
    expect(
      paid
        .json()
        .map((payout: { id: number; state: string; bankReference: string }) => [
          payout.id,
          payout.state,
          payout.bankReference,
        ]),
    ).toEqual([
      [a, 'paid', 'BULK0000A1'],
      [b, 'paid', 'BULK0000B1'],
    ]);
    expect(await states()).toEqual(['paid', 'paid', 'requested']);
    expect(await outboxTypes(a)).toEqual(['PayoutRequested', 'PayoutProcessingStarted', 'PayoutPaid']);

    // A reference already recorded on another payout is a typing mistake.
    await admin('process', c);
    const reused = await admin('pay', c, { bankReference: 'bulk0000b1' });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toBe(PAYOUT.bankReference.duplicate);
    expect(await balanceOf(shopper)).toMatchObject({
      available: '800.00',
      paidOut: '700.00',
      inProgress: '500.00',
    });
  });

  it('lists the queue oldest first, react-admin style, filtered by state, shopper and method', async () => {
    const shopper = await shopperWith('1000');
    const first = (await request(shopper, { amount: '250', upiId: 'asha@okaxis' })).json().id;
    const second = (
      await request(shopper, { amount: '260', accountNumber: '123456789012', ifsc: 'SBIN0001234' })
    ).json().id;
    await admin('process', second);
    const list = (filter: Record<string, unknown>, extra = '') =>
      inject(
        'GET',
        `/api/admin/payouts?filter=${encodeURIComponent(JSON.stringify(filter))}${extra}`,
        market.admin,
      );

    const mine = await list({ userId: shopper.id });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-range']).toBe('payouts 0-1/2');
    expect(mine.json().map((payout: { id: number }) => payout.id)).toEqual([first, second]);
    expect(mine.json()[1]).toMatchObject({ amount: '260.00', method: 'bank', accountNumber: '123456789012' });
    expect(
      (await list({ userId: shopper.id, state: 'requested' })).json().map((p: { id: number }) => p.id),
    ).toEqual([first]);
    expect((await list({ userId: shopper.id, state: 'open' })).json()).toHaveLength(2);
    expect(
      (await list({ userId: shopper.id, method: 'bank' })).json().map((p: { id: number }) => p.id),
    ).toEqual([second]);
    const newest = await list(
      { userId: shopper.id },
      `&sort=${encodeURIComponent('["requestedAt","DESC"]')}`,
    );
    expect(newest.json().map((payout: { id: number }) => payout.id)).toEqual([second, first]);
    const byAmount = await list(
      { state: 'open' },
      `&sort=${encodeURIComponent('["amount","DESC"]')}&range=[0,0]`,
    );
    expect(byAmount.headers['content-range']).toMatch(/^payouts 0-0\/\d+$/);
    expect((await list({}, '&sort=["password","ASC"]')).statusCode).toBe(400);
  });

  it('keeps cashback in a payout from leaving the balance: cancelling it would overdraw', async () => {
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    const kept = await confirmedCashback(market, shop, shopper, '300');
    const spare = await confirmedCashback(market, shop, shopper, '100');
    expect((await request(shopper, { amount: '350', upiId: 'asha@okaxis' })).statusCode).toBe(201);

    const cancel = (id: number) => inject('POST', `/api/admin/cashbacks/${id}/cancel`, market.admin);
    const refused = await cancel(kept);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(PAYOUT.earningWithdrawn);
    // ₹50 is free: ₹100 of cashback cannot go either, but once the payout fails, both may.
    expect((await cancel(spare)).statusCode).toBe(409);
    const [{ id }] = await market.api.dataSource.query('SELECT id FROM payouts WHERE user_id = $1', [
      shopper.id,
    ]);
    await admin('fail', id, { reason: 'Returned by the bank.' });
    expect((await cancel(spare)).statusCode).toBe(200);
    expect((await balanceOf(shopper)).available).toBe('300.00');
  });
});

describe('the demo marketplace', () => {
  it('has a shopper with confirmed cashback above the minimum and payouts in two states, seeded once', async () => {
    const { dataSource } = market.api;
    await demoCouponsSeed.run(dataSource, market.test.environment);
    expect(await demoPayoutsSeed.run(dataSource, market.test.environment)).toContain(DEMO_SHOPPER.email);
    expect(await demoPayoutsSeed.run(dataSource, market.test.environment)).toBeUndefined();

    const signedIn = await inject('POST', '/api/auth/users/login', BEARER_SIGN_IN, {
      email: DEMO_SHOPPER.email,
      userName: DEMO_SHOPPER.userName,
      password: DEMO_SHOPPER.password,
    });
    const shopper = sessionFrom(signedIn, signedIn.json().userId);
    expect(await balanceOf(shopper)).toEqual({
      available: '847.35',
      minimum: '250.00',
      confirmed: '1397.35',
      inProgress: '300.00',
      paidOut: '250.00',
    });
    const { payouts } = (await inject('GET', '/api/me/payouts', shopper.bearer)).json();
    expect(
      payouts.map((payout: { state: string; destination: string }) => [payout.state, payout.destination]),
    ).toEqual([
      ['requested', 'XXXX7891 · HDFC0001234'],
      ['paid', 'priya.sharma@okhdfcbank'],
    ]);
    const queue = await inject('GET', '/api/admin/payouts?filter={"state":"open"}', market.admin);
    expect(
      queue.json().some((payout: { userName: string }) => payout.userName === DEMO_SHOPPER.userName),
    ).toBe(true);
  });
});
