import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EARNINGS } from '@offers/api/rules';
import { EarningUpdates } from '@offers/workers/mail';
import { registerAndSignInUser, type Session } from '../support/accounts.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { untilEventsProcessed } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop, confirmedCashback } from '../support/payouts.js';
import { eventually } from '../support/test-environment.js';

/**
 * Each earning's timeline as its shopper reads it (`GET /api/me/earnings/:id`), and the daily
 * digest of purchases tracked and cashback confirmed, read back from a real SMTP server.
 */
let market: EngagementMarket;
let shop: CashbackShop;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  market = await startEngagementMarket('earning timeline');
  shop = await cashbackShop(market, { title: 'Kesar glow serum 30% off' });
  await market.api.dataSource.query(
    "INSERT INTO merchant_stores (merchant_id, store_name, store_address) VALUES ($1, 'Kesar Beauty', 'Jaipur')",
    [shop.merchant.id],
  );
  const days = await inject('PUT', `/api/admin/cashback-rates/${shop.merchant.id}`, market.admin, {
    confirmDays: 10,
  });
  expect(days.statusCode).toBe(200);
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

const timelineOf = async (session: Session, id: number | string) =>
  inject('GET', `/api/me/earnings/${id}`, session.bearer);

const shape = (steps: Array<{ step: string; status: string }>) =>
  steps.map(({ step, status }) => `${step}:${status}`);

let addresses = 0;
let orders = 0;

/** The shopper clicks out to the shop and buys: the shop's postback names the click. */
async function purchaseThroughClick(shopper: Session, rupees: string): Promise<number> {
  addresses += 1;
  const out = await inject('GET', `/api/out/${shop.couponId}`, {
    'x-forwarded-for': `10.77.0.${addresses}`,
    ...shopper.bearer,
  });
  expect(out.statusCode).toBe(302);
  const clickId = new URL(String(out.headers.location)).searchParams.get('subid')!;
  orders += 1;
  const body = JSON.stringify({
    purchaseReference: `TL-${Date.now()}-${orders}`,
    clickId,
    purchaseType: 'online',
    purchaseAmount: rupees,
  });
  const recorded = await inject(
    'POST',
    '/api/postbacks/purchases',
    {
      'content-type': 'application/json',
      'x-signature': `sha256=${createHmac('sha256', shop.secret).update(body).digest('hex')}`,
    },
    body,
  );
  expect(recorded.statusCode).toBe(201);
  return recorded.json().id as number;
}

/** Noon (or `hour`) of the day `days` after today in India. */
function dayInIndia(days: number, hour = 12): Date {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
  return new Date(Date.parse(`${today}T${String(hour).padStart(2, '0')}:00:00+05:30`) + days * DAY_MS);
}

/** The scheduled sweep, as it would run at `at`, once every event so far is applied. */
async function sweep(at: Date): Promise<number> {
  await untilEventsProcessed(market);
  const updates = market.workers.module.get(EarningUpdates);
  return market.api.dataSource.transaction((manager) => updates.mailDue(manager, at));
}

/** The mails about the shopper's earnings (the welcome mail aside). */
const digestsTo = (address: string) =>
  market.smtp.to(address).filter((mail) => mail.text.includes('/account/earnings'));

const mailsTo = (address: string, count: number) =>
  eventually(async () => {
    const mails = digestsTo(address);
    return mails.length >= count && mails;
  }, `${count} mail(s) to ${address}`);

describe('an earning’s timeline', () => {
  it('pending: clicked at the store, tracked, pending until the store’s confirm days have passed', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    const id = await purchaseThroughClick(session, '1500');
    const answer = await timelineOf(session, id);
    expect(answer.statusCode).toBe(200);
    const timeline = answer.json();
    expect(timeline).toMatchObject({
      id,
      type: 'cashback',
      state: 'pending',
      store: { id: shop.merchant.id, name: 'Kesar Beauty' },
      purchaseAmount: '1500.00',
      cashback: '1500.00',
      confirmDays: 10,
      cancelReason: null,
      payout: null,
    });
    expect(shape(timeline.steps)).toEqual([
      'clicked:done',
      'tracked:done',
      'pending:current',
      'confirmed:upcoming',
      'paid:upcoming',
    ]);
    const [clicked, tracked, pending, confirmed, paid] = timeline.steps;
    expect(Date.parse(clicked.at)).toBeLessThanOrEqual(Date.parse(tracked.at));
    expect(Date.parse(pending.expectedAt) - Date.parse(tracked.at)).toBe(10 * DAY_MS);
    expect(confirmed).toMatchObject({ at: null, expectedAt: pending.expectedAt });
    expect(paid).toMatchObject({ at: null, expectedAt: null });
  });

  it('confirmed, then paid by the payout that spent it; a later earning waits for the next payout', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    const first = await confirmedCashback(market, shop, session, '300');
    const second = await confirmedCashback(market, shop, session, '200');
    const confirmed = (await timelineOf(session, first)).json();
    expect(shape(confirmed.steps)).toEqual([
      'tracked:done',
      'pending:done',
      'confirmed:done',
      'paid:upcoming',
    ]);
    expect(confirmed.steps[2].at).not.toBeNull();

    const requested = await inject('POST', '/api/me/payouts', session.bearer, {
      amount: '300',
      upiId: 'meera@okaxis',
    });
    expect(requested.statusCode).toBe(201);
    const payoutId = requested.json().id;
    const onItsWay = (await timelineOf(session, first)).json();
    expect(onItsWay.payout).toMatchObject({ id: payoutId, state: 'requested', paidAt: null });
    expect(shape(onItsWay.steps).at(-1)).toBe('paid:current');

    await inject('POST', `/api/admin/payouts/${payoutId}/process`, market.admin);
    const paidOut = await inject('POST', `/api/admin/payouts/${payoutId}/pay`, market.admin, {
      bankReference: `UTR${Date.now()}`,
    });
    expect(paidOut.statusCode).toBe(200);
    const paid = (await timelineOf(session, first)).json();
    expect(paid.payout).toMatchObject({ id: payoutId, state: 'paid' });
    expect(paid.steps.at(-1)).toMatchObject({ step: 'paid', status: 'done', at: paid.payout.paidAt });

    const later = (await timelineOf(session, second)).json();
    expect(later.payout).toBeNull();
    expect(shape(later.steps).at(-1)).toBe('paid:upcoming');
  });

  it('cancelled by an admin: no reason given; paid outside a payout: paid at the admin’s mark', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    const cancelledId = await confirmedCashback(market, shop, session, '700', { confirm: false });
    expect(
      (await inject('POST', `/api/admin/cashbacks/${cancelledId}/cancel`, market.admin)).statusCode,
    ).toBe(200);
    const cancelled = (await timelineOf(session, cancelledId)).json();
    expect(cancelled).toMatchObject({ state: 'cancelled', cancelReason: null });
    expect(shape(cancelled.steps)).toEqual(['tracked:done', 'pending:done', 'cancelled:done']);

    const paidId = await confirmedCashback(market, shop, session, '90');
    expect((await inject('POST', `/api/admin/cashbacks/${paidId}/pay`, market.admin)).statusCode).toBe(200);
    const paid = (await timelineOf(session, paidId)).json();
    expect(paid).toMatchObject({ state: 'paid', payout: null });
    expect(paid.steps.at(-1)).toMatchObject({ step: 'paid', status: 'done' });
    expect(paid.steps.at(-1).at).not.toBeNull();
  });

  it('another shopper’s earning and an unknown one are 404 alike; a malformed id is 400', async () => {
    const owner = (await registerAndSignInUser(market.api.baseUrl)).session;
    const stranger = (await registerAndSignInUser(market.api.baseUrl)).session;
    const id = await confirmedCashback(market, shop, owner, '100', { confirm: false });
    const others = await timelineOf(stranger, id);
    const unknown = await timelineOf(stranger, 2_000_000_000);
    expect(others.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(others.json()).toEqual(unknown.json());
    expect(others.json().message).toBe(EARNINGS.notFound);
    for (const malformed of ['abc', '0', '-1', '1.5', '99999999999', '%27']) {
      const answer = await timelineOf(stranger, malformed);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ statusCode: 400 });
    }
    expect((await inject('GET', `/api/me/earnings/${id}`)).statusCode).toBe(401);
  });
});

describe('mails of purchases tracked and cashback confirmed', () => {
  it('a purchase tracked: mailed in Hindi with the date the store is expected to confirm it', async () => {
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl, { language: 'hi' });
    const id = await purchaseThroughClick(session, '1234.50');
    await sweep(dayInIndia(1));
    const [mail] = await mailsTo(registration.email, 1);
    expect(mail!.subject).toBe('Kesar Beauty पर आपकी ख़रीदारी ट्रैक हो गई: ₹1,234.50 का कैशबैक लंबित');
    expect(mail!.html).toContain('<html lang="hi">');
    const tracked = (await timelineOf(session, id)).json().steps[1].at as string;
    const expectedBy = new Intl.DateTimeFormat('hi-IN', {
      dateStyle: 'long',
      timeZone: 'Asia/Kolkata',
    }).format(new Date(Date.parse(tracked) + 10 * DAY_MS));
    expect(mail!.text).toContain(
      `Kesar Beauty ने आपकी ₹1,234.50 की ख़रीदारी ट्रैक कर ली है: आपका ₹1,234.50 का कैशबैक लंबित है और ${expectedBy} तक कन्फ़र्म होने की उम्मीद है।`,
    );
    expect(mail!.text).toContain(`http://shop.offers.test/hi/account/earnings/${id}`);
    expect(mail!.text).toContain('मेरी कमाई देखें: http://shop.offers.test/hi/account/earnings');
  });

  it('cashback confirmed: mailed in English, told once even though it was tracked since the last mail', async () => {
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl);
    await confirmedCashback(market, shop, session, '450');
    await sweep(dayInIndia(1));
    const [mail] = await mailsTo(registration.email, 1);
    expect(mail!.subject).toBe('Your cashback of ₹450.00 is confirmed');
    expect(mail!.text).toContain(
      'Kesar Beauty confirmed your purchase: your cashback of ₹450.00 is now in your available balance.',
    );
    expect(mail!.text).not.toContain('tracked');
    expect(mail!.text).toContain('We mail you at most once a day about your purchases and cashback.');
  });

  it('two purchases in a day: one digest in Telugu; a third that day waits for the next day’s mail', async () => {
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl, { language: 'te' });
    const first = await purchaseThroughClick(session, '500');
    const second = await purchaseThroughClick(session, '800');
    // Not due before the wait after the purchases has passed.
    const before = await sweep(new Date());
    expect(digestsTo(registration.email)).toHaveLength(0);
    expect(before).toBe(0);

    await sweep(dayInIndia(1));
    const [digest] = await mailsTo(registration.email, 1);
    expect(digest!.subject).toBe('మీ క్యాష్‌బ్యాక్‌పై 2 కొత్త అప్‌డేట్‌లు');
    expect(digest!.html).toContain('<html lang="te">');
    expect(digest!.text).toContain('Kesar Beauty మీ ₹500.00 కొనుగోలును ట్రాక్ చేసింది');
    expect(digest!.text).toContain('Kesar Beauty మీ ₹800.00 కొనుగోలును ట్రాక్ చేసింది');
    expect(digest!.text).toContain(`http://shop.offers.test/te/account/earnings/${first}`);
    expect(digest!.text).toContain(`http://shop.offers.test/te/account/earnings/${second}`);

    const third = await purchaseThroughClick(session, '250');
    await sweep(dayInIndia(1, 20));
    await sweep(dayInIndia(1, 23));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(digestsTo(registration.email)).toHaveLength(1);

    await sweep(dayInIndia(2));
    const mails = await mailsTo(registration.email, 2);
    expect(mails[1]!.subject).toBe('Kesar Beauty‌లో మీ కొనుగోలు ట్రాక్ అయింది: ₹250.00 క్యాష్‌బ్యాక్ పెండింగ్‌లో ఉంది');
    expect(mails[1]!.text).toContain(`/te/account/earnings/${third}`);
    // Nothing is owed any more, whenever the sweep runs again.
    await sweep(dayInIndia(3));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(digestsTo(registration.email)).toHaveLength(2);
  });

  it('a purchase cancelled before its mail is not announced', async () => {
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl);
    const id = await confirmedCashback(market, shop, session, '60', { confirm: false });
    await inject('POST', `/api/admin/cashbacks/${id}/cancel`, market.admin);
    await sweep(dayInIndia(1));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(digestsTo(registration.email)).toHaveLength(0);
    const [notice] = await market.api.dataSource.query(
      'SELECT mailed_at AS "mailedAt" FROM earning_notices WHERE earning_id = $1',
      [id],
    );
    expect(notice.mailedAt).not.toBeNull();
  });
});
