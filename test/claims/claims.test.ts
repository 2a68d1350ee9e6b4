import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEMO_SHOPPER, demoClaimsSeed, demoCouponsSeed, demoPayoutsSeed } from '@offers/api/demo';
import { CLAIM_MESSAGES, CLAIM_RULES, countedMessage } from '@offers/api/rules';
import sharp from 'sharp';
import { BEARER_SIGN_IN, registerAndSignInUser, type Session, sessionFrom } from '../support/accounts.js';
import { clickOutDaysAgo } from '../support/claims.js';
import { multipart } from '../support/coupons.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { type CashbackShop, cashbackShop, cashbackShopWithStore } from '../support/payouts.js';
import type { ReceivedMail } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';

/**
 * Missing-cashback claims against the real API, PostgreSQL, workers and an SMTP server: filing a
 * claim for a click-out and every refusal, the private invoice without its metadata, the admins'
 * queue with approvals that credit once and rejections with a reason, the answer's mail, and
 * purchases without a click or above the cap waiting in the same queue.
 */
let market: EngagementMarket;
let shop: CashbackShop;

const DAY_MS = 86_400_000;

beforeAll(async () => {
  market = await startEngagementMarket('missing cashback claims');
  shop = await cashbackShopWithStore(market, 'Kesar glow serum 30% off', {
    name: 'Kesar Beauty',
    address: 'Jaipur',
  });
}, 60_000);

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload: payload as string });

let addresses = 0;
const nextAddress = () => {
  addresses += 1;
  return `10.88.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

/**
 * A click-out of the shopper made `daysAgo` days ago from `address`: a real click-out, whose row
 * (with the digest of its address) is then copied to the past under a click id of that time.
 */
async function clickFrom(shopper: Session, daysAgo: number, address = nextAddress()): Promise<string> {
  return clickOutDaysAgo(market, shop.couponId, { ...shopper.bearer, 'x-forwarded-for': address }, daysAgo);
}

const indiaDay = (at: Date) => new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 10);

let orders = 0;
const claimForm = (clickId: string, overrides: Record<string, unknown> = {}) => {
  orders += 1;
  return {
    clickId,
    orderId: `KB-${process.pid}-${orders}`,
    orderDate: indiaDay(new Date()),
    amount: '1299.50',
    ...overrides,
  };
};

const fileClaim = (
  shopper: Session,
  fields: Record<string, unknown>,
  invoice?: { bytes: Buffer; type?: string; name?: string },
  address = nextAddress(),
) => {
  const form = multipart(
    fields,
    invoice
      ? {
          invoice: {
            name: invoice.name ?? 'invoice.jpg',
            type: invoice.type ?? 'image/jpeg',
            bytes: invoice.bytes,
          },
        }
      : {},
  );
  return market.api.http.inject({
    method: 'POST',
    url: '/api/me/missing-cashback-claims',
    headers: { ...shopper.bearer, ...form.headers, 'x-forwarded-for': address },
    payload: form.payload,
  });
};

const claimCount = async () =>
  (await market.api.dataSource.query('SELECT count(*)::int AS n FROM missing_cashback_claims'))[0]
    .n as number;

/** A photo of a receipt, taken somewhere in Bengaluru, with its camera and position in EXIF. */
const receiptPhoto = () =>
  sharp({ create: { width: 60, height: 30, channels: 3, background: 'white' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'PhoneMaker', Model: 'ReceiptCam' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '12/1 58/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '77/1 35/1 0/1',
      },
    })
    .toBuffer();

const mailTo = (address: string, subject: RegExp) =>
  eventually(
    async () => market.smtp.to(address).find((mail) => subject.test(mail.subject)),
    `a mail "${subject}" to ${address}`,
  ) as Promise<ReceivedMail>;

describe('filing a claim', () => {
  it('takes a click-out of the shopper within the window, with its invoice kept privately and without EXIF', async () => {
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    const address = nextAddress();
    const clickId = await clickFrom(shopper, 3, address);
    const claimable = await inject('GET', '/api/me/missing-cashback-claims/clicks', shopper.bearer);
    expect(claimable.json()).toEqual([
      expect.objectContaining({
        clickId,
        storeName: 'Kesar Beauty',
        couponTitle: 'Kesar glow serum 30% off',
      }),
    ]);
    const photo = await receiptPhoto();
    expect((await sharp(photo).metadata()).exif).toEqual(expect.any(Buffer));

    const filed = await fileClaim(shopper, claimForm(clickId), { bytes: photo }, address);

    expect(filed.statusCode).toBe(201);
    const claim = filed.json();
    expect(claim).toMatchObject({
      kind: 'claim',
      state: 'open',
      storeName: 'Kesar Beauty',
      amount: '1299.50',
      answeredAt: null,
      reason: null,
    });
    expect(new Date(claim.expectedBy).getTime() - new Date(claim.filedAt).getTime()).toBe(
      CLAIM_RULES.answerDaysDefault * DAY_MS,
    );
    // The invoice is not under the public media path, and the public path does not serve it.
    expect(claim.invoiceUrl).toBe(`/api/claim-invoices/${claim.id}`);
    const [{ invoice_id: invoiceId }] = await market.api.dataSource.query(
      'SELECT invoice_id FROM missing_cashback_claims WHERE id = $1',
      [claim.id],
    );
    expect((await inject('GET', `/api/media/${invoiceId}`)).statusCode).toBe(404);

    // Read back as the shopper's browser would, over HTTP.
    const own = await fetch(`${market.api.baseUrl}${claim.invoiceUrl}`, { headers: shopper.bearer });
    expect(own.status).toBe(200);
    expect(own.headers.get('cache-control')).toBe('private, no-store');
    expect(own.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await own.arrayBuffer());
    const metadata = await sharp(bytes).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('PhoneMaker'))).toBe(false);
    expect([metadata.width, metadata.height]).toEqual([30, 60]);

    const admin = await inject('GET', claim.invoiceUrl, market.admin);
    expect(admin.statusCode).toBe(200);
    expect(admin.headers['cache-control']).toBe('private, no-store');
    const { session: stranger } = await registerAndSignInUser(market.api.baseUrl);
    expect((await inject('GET', claim.invoiceUrl, stranger.bearer)).statusCode).toBe(404);
    expect((await inject('GET', claim.invoiceUrl)).statusCode).toBe(404);
    expect((await inject('GET', claim.invoiceUrl, shop.merchant.bearer)).statusCode).toBe(404);

    // The admins' queue shows the click beside the claim, and that it came from the click's address.
    const queued = await inject('GET', `/api/admin/missing-cashback-claims/${claim.id}`, market.admin);
    expect(queued.json()).toMatchObject({
      kind: 'claim',
      clickId,
      storeName: 'Kesar Beauty',
      couponTitle: 'Kesar glow serum 30% off',
      sameAddress: true,
    });
    expect(Math.abs(new Date(queued.json().clickedAt).getTime() - (Date.now() - 3 * DAY_MS))).toBeLessThan(
      60_000,
    );
    // Filed, the click is no longer offered for a claim.
    expect((await inject('GET', '/api/me/missing-cashback-claims/clicks', shopper.bearer)).json()).toEqual(
      [],
    );
    const events = await market.api.dataSource.query(
      "SELECT type FROM outbox WHERE aggregate_type = 'MissingCashbackClaim' AND aggregate_id = $1",
      [String(claim.id)],
    );
    expect(events).toEqual([{ type: 'MissingCashbackClaimed' }]);
  });

  it('says when it came from another address than the click-out', async () => {
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    const clickId = await clickFrom(shopper, 2, '10.99.1.1');
    const filed = await fileClaim(shopper, claimForm(clickId), undefined, '10.99.2.2');
    expect(filed.statusCode).toBe(201);
    const queued = await inject('GET', `/api/admin/missing-cashback-claims/${filed.json().id}`, market.admin);
    expect(queued.json().sameAddress).toBe(false);
  });

  it('refuses, changing nothing: too recent, too old, another’s click, twice, a reused order id, bad fields, a 6th open claim', async () => {
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    const before = await claimCount();

    const recent = await fileClaim(shopper, claimForm(await clickFrom(shopper, 0)));
    expect(recent.statusCode).toBe(422);
    expect(recent.json()).toMatchObject({
      message: CLAIM_MESSAGES.tooRecent,
      errors: { clickId: [CLAIM_MESSAGES.tooRecent] },
    });

    const old = await fileClaim(shopper, claimForm(await clickFrom(shopper, 31)));
    expect(old.statusCode).toBe(422);
    expect(old.json().message).toBe(countedMessage(CLAIM_MESSAGES.tooOld, 30));
    expect(old.json().message).toBe(
      'This store takes claims up to 30 days after your visit; this visit is older.',
    );

    const { session: other } = await registerAndSignInUser(market.api.baseUrl);
    const othersClick = await clickFrom(other, 3);
    const notTheirs = await fileClaim(shopper, claimForm(othersClick));
    expect(notTheirs.statusCode).toBe(404);
    expect(notTheirs.json()).toEqual({ statusCode: 404, message: CLAIM_MESSAGES.clickNotFound });
    expect((await fileClaim(shopper, claimForm('not-a-click'))).statusCode).toBe(404);

    const bad = await fileClaim(
      shopper,
      claimForm(await clickFrom(shopper, 3), { orderId: '', amount: '12.345' }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      orderId: [CLAIM_MESSAGES.orderId.required],
      amount: [CLAIM_MESSAGES.amount.invalid],
    });
    expect(await claimCount()).toBe(before);

    const clickId = await clickFrom(shopper, 4);
    const first = claimForm(clickId);
    expect((await fileClaim(shopper, first)).statusCode).toBe(201);
    const twice = await fileClaim(shopper, claimForm(clickId));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(CLAIM_MESSAGES.alreadyClaimed);
    // The same order id at the same store (in another case) from another click.
    const reused = await fileClaim(
      shopper,
      claimForm(await clickFrom(shopper, 2), { orderId: first.orderId.toLowerCase() }),
    );
    expect(reused.statusCode).toBe(409);
    expect(reused.json().errors).toEqual({ orderId: [CLAIM_MESSAGES.orderIdTaken] });

    for (let n = 2; n <= CLAIM_RULES.openMax; n += 1) {
      expect((await fileClaim(shopper, claimForm(await clickFrom(shopper, 2)))).statusCode).toBe(201);
    }
    const sixth = await fileClaim(shopper, claimForm(await clickFrom(shopper, 2)));
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json()).toEqual({ statusCode: 409, message: CLAIM_MESSAGES.tooManyOpen });
    expect(await claimCount()).toBe(before + CLAIM_RULES.openMax);
  });

  it('takes images only, by their bytes, and at most 5 MB', async () => {
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    const clickId = await clickFrom(shopper, 2);
    const before = await claimCount();
    const before_media = (
      await market.api.dataSource.query('SELECT count(*)::int AS n FROM private_media')
    )[0].n;

    const text = await fileClaim(shopper, claimForm(clickId), {
      bytes: Buffer.from('%PDF-1.7 not an image at all'),
      name: 'invoice.jpg',
      type: 'image/jpeg',
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({
      message: CLAIM_MESSAGES.invoiceNotImage,
      errors: { invoice: [CLAIM_MESSAGES.invoiceNotImage] },
    });

    const large = Buffer.concat([
      await receiptPhoto(),
      Buffer.alloc(CLAIM_RULES.invoiceMaxMegabytes * 1024 * 1024),
    ]);
    const tooLarge = await fileClaim(shopper, claimForm(clickId), { bytes: large });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().message).toBe(CLAIM_MESSAGES.invoiceTooLarge);

    expect(await claimCount()).toBe(before);
    expect((await market.api.dataSource.query('SELECT count(*)::int AS n FROM private_media'))[0].n).toBe(
      before_media,
    );
  });
});

describe('the admins’ queue', () => {
  it('approves a claim once, however many approvals arrive at once: one pending earning at the rate live at the click, mailed in Hindi', async () => {
    const { registration, session: shopper } = await registerAndSignInUser(market.api.baseUrl, {
      language: 'hi',
    });
    const clickId = await clickFrom(shopper, 5);
    const form = claimForm(clickId, { amount: '800' });
    const claimId = (await fileClaim(shopper, form)).json().id as number;
    // The store's 100 % came after this (back-dated) click: the claim earns the rate live at the
    // click, the site's default 5 %.

    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        inject('POST', `/api/admin/missing-cashback-claims/${claimId}/approve`, market.admin),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const refused = answers.find((answer) => answer.statusCode === 409)!;
    expect(refused.json().message).toBe(CLAIM_MESSAGES.answered('approved'));
    const earnings = await market.api.dataSource.query(
      'SELECT id, state, amount_paise, purchase_reference, purchase_type FROM earnings WHERE click_id = $1',
      [clickId],
    );
    expect(earnings).toEqual([
      {
        id: expect.any(Number),
        state: 'pending',
        amount_paise: '4000',
        purchase_reference: form.orderId,
        purchase_type: 'claim',
      },
    ]);
    const mine = (await inject('GET', '/api/me/missing-cashback-claims', shopper.bearer)).json();
    expect(mine[0]).toMatchObject({ id: claimId, state: 'approved', cashback: '40.00' });
    const history = (await inject('GET', '/api/me/earnings', shopper.bearer)).json();
    expect(history.totals.pending).toBe('40.00');
    const events = await market.api.dataSource.query(
      "SELECT type FROM outbox WHERE aggregate_type = 'MissingCashbackClaim' AND aggregate_id = $1 ORDER BY position",
      [String(claimId)],
    );
    expect(events.map((event: { type: string }) => event.type)).toEqual([
      'MissingCashbackClaimed',
      'ClaimApproved',
    ]);

    const mail = await mailTo(registration.email, /दावा/);
    expect(mail.subject).toBe('Kesar Beauty के लिए आपका कैशबैक दावा मंज़ूर हो गया');
    expect(mail.html).toContain('<html lang="hi">');
    expect(mail.text).toContain(`ऑर्डर ${form.orderId}`);
    expect(mail.text).toContain('₹40.00');
    expect(mail.text).toContain('http://shop.offers.test/hi/account/claims');
  });

  it('rejects a claim with the reason the shopper reads, mailed in Telugu; a reason is required', async () => {
    const { registration, session: shopper } = await registerAndSignInUser(market.api.baseUrl, {
      language: 'te',
    });
    const claimId = (await fileClaim(shopper, claimForm(await clickFrom(shopper, 2)))).json().id as number;

    const without = await inject(
      'POST',
      `/api/admin/missing-cashback-claims/${claimId}/reject`,
      market.admin,
      {
        reason: '   ',
      },
    );
    expect(without.statusCode).toBe(400);
    expect(without.json().errors).toEqual({ reason: [CLAIM_MESSAGES.reason.required] });

    const rejected = await inject(
      'POST',
      `/api/admin/missing-cashback-claims/${claimId}/reject`,
      market.admin,
      {
        reason: 'The store says this order was returned.',
      },
    );
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({
      state: 'rejected',
      reason: 'The store says this order was returned.',
    });
    expect(
      (await inject('POST', `/api/admin/missing-cashback-claims/${claimId}/approve`, market.admin))
        .statusCode,
    ).toBe(409);
    const mine = (await inject('GET', '/api/me/missing-cashback-claims', shopper.bearer)).json();
    expect(mine[0]).toMatchObject({ state: 'rejected', reason: 'The store says this order was returned.' });

    const mail = await mailTo(registration.email, /క్లెయిమ్/);
    expect(mail.subject).toBe('Kesar Beauty కోసం మీ క్యాష్‌బ్యాక్ క్లెయిమ్ ఆమోదించబడలేదు');
    expect(mail.text).toContain('> The store says this order was returned.');
    expect(mail.text).toContain('http://shop.offers.test/te/account/claims');
  });

  it('lists by state and kind, react-admin’s way; bad filters are 400', async () => {
    const open = await inject(
      'GET',
      `/api/admin/missing-cashback-claims?filter=${encodeURIComponent('{"state":"open","kind":"claim"}')}&range=[0,4]`,
      market.admin,
    );
    expect(open.statusCode).toBe(200);
    expect(open.headers['content-range']).toMatch(/^missing-cashback-claims 0-\d+\/\d+$/);
    expect(
      open
        .json()
        .every((claim: { state: string; kind: string }) => claim.state === 'open' && claim.kind === 'claim'),
    ).toBe(true);
    const bad = await inject(
      'GET',
      `/api/admin/missing-cashback-claims?filter=${encodeURIComponent('{"state":"lost"}')}`,
      market.admin,
    );
    expect(bad.statusCode).toBe(400);
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    expect((await inject('GET', '/api/admin/missing-cashback-claims', shopper.bearer)).statusCode).toBe(403);
  });
});

describe('purchases that wait in the queue', () => {
  const postback = (fields: Record<string, unknown>) => {
    const body = JSON.stringify(fields);
    return market.api.http.inject({
      method: 'POST',
      url: '/api/postbacks/purchases',
      headers: {
        'content-type': 'application/json',
        'x-signature': `sha256=${createHmac('sha256', shop.secret).update(body).digest('hex')}`,
      },
      payload: body,
    });
  };

  it('a purchase without a click is recorded for its shopper but credited only when approved', async () => {
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    const code = (await inject('GET', '/api/me/referral', shopper.bearer)).json().code;
    const reported = await postback({
      purchaseReference: `NOCLICK-${process.pid}`,
      couponId: shop.couponId,
      referralCode: code,
      purchaseType: 'online',
      purchaseAmount: '640',
    });
    expect(reported.statusCode).toBe(201);
    expect(reported.json()).toMatchObject({ state: 'pending', heldForReview: true, userId: shopper.id });
    const earningId = reported.json().id;
    // Not the shopper's cashback yet, and not confirmable.
    expect((await inject('GET', '/api/me/earnings', shopper.bearer)).json().total).toBe(0);
    const confirm = await inject('POST', `/api/admin/cashbacks/${earningId}/confirm`, market.admin);
    expect(confirm.statusCode).toBe(409);
    expect(confirm.json().message).toBe(CLAIM_MESSAGES.heldForReview);

    const queue = await inject(
      'GET',
      `/api/admin/missing-cashback-claims?filter=${encodeURIComponent(JSON.stringify({ kind: 'no_click', userId: shopper.id }))}`,
      market.admin,
    );
    expect(queue.json()).toEqual([
      expect.objectContaining({
        kind: 'no_click',
        state: 'open',
        earningId,
        amount: '640.00',
        clickId: null,
      }),
    ]);
    const approved = await inject(
      'POST',
      `/api/admin/missing-cashback-claims/${queue.json()[0].id}/approve`,
      market.admin,
    );
    expect(approved.statusCode).toBe(200);
    const history = (await inject('GET', '/api/me/earnings', shopper.bearer)).json();
    expect(history.totals.pending).toBe('640.00');
    expect((await inject('POST', `/api/admin/cashbacks/${earningId}/confirm`, market.admin)).statusCode).toBe(
      200,
    );
    const events = await market.api.dataSource.query(
      "SELECT type FROM outbox WHERE aggregate_type = 'Earning' AND aggregate_id = $1 ORDER BY position",
      [String(earningId)],
    );
    expect(events.map((event: { type: string }) => event.type)).toEqual([
      'PurchaseRecorded',
      'PurchaseCredited',
      'CashbackConfirmed',
    ]);
  });

  it('a purchase above the store’s cap waits; rejecting it cancels it', async () => {
    const capped = await cashbackShop(market, { title: 'Neem face wash buy 1 get 1' });
    const cap = await inject('PUT', `/api/admin/cashback-rates/${capped.merchant.id}`, market.admin, {
      base: { percent: '100' },
      capRupees: '500',
    });
    expect(cap.statusCode).toBe(200);
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    const answer = await inject('GET', `/api/out/${capped.couponId}`, {
      ...shopper.bearer,
      'x-forwarded-for': nextAddress(),
    });
    const clickId = new URL(String(answer.headers.location)).searchParams.get('subid')!;
    const body = JSON.stringify({
      purchaseReference: `CAP-${process.pid}`,
      clickId,
      purchaseType: 'online',
      purchaseAmount: '900',
    });
    const reported = await market.api.http.inject({
      method: 'POST',
      url: '/api/postbacks/purchases',
      headers: {
        'content-type': 'application/json',
        'x-signature': `sha256=${createHmac('sha256', capped.secret).update(body).digest('hex')}`,
      },
      payload: body,
    });
    expect(reported.statusCode).toBe(201);
    expect(reported.json()).toMatchObject({ overCap: true, heldForReview: true });
    const earningId = reported.json().id;
    expect((await inject('GET', '/api/me/earnings', shopper.bearer)).json().total).toBe(0);

    const [item] = (
      await inject(
        'GET',
        `/api/admin/missing-cashback-claims?filter=${encodeURIComponent(JSON.stringify({ kind: 'over_cap', userId: shopper.id }))}`,
        market.admin,
      )
    ).json();
    expect(item).toMatchObject({
      kind: 'over_cap',
      clickId,
      earningId,
      amount: '900.00',
      couponTitle: 'Neem face wash buy 1 get 1',
    });
    const rejected = await inject(
      'POST',
      `/api/admin/missing-cashback-claims/${item.id}/reject`,
      market.admin,
      {
        reason: 'Above the store’s cap: the store pays no more than ₹500.',
      },
    );
    expect(rejected.statusCode).toBe(200);
    const [earning] = await market.api.dataSource.query('SELECT state FROM earnings WHERE id = $1', [
      earningId,
    ]);
    expect(earning.state).toBe('cancelled');
  });
});

describe('the demo marketplace', () => {
  it('has the demo shopper’s claims in each state, the waiting one with its invoice, filed once', async () => {
    const { dataSource } = market.api;
    const { environment } = market.test;
    await demoCouponsSeed.run(dataSource, environment);
    await demoPayoutsSeed.run(dataSource, environment);
    expect(await demoClaimsSeed.run(dataSource, environment)).toContain('3 missing-cashback claims');
    expect(await demoClaimsSeed.run(dataSource, environment)).toBeUndefined();

    const signedIn = await inject('POST', '/api/auth/users/login', BEARER_SIGN_IN, {
      email: DEMO_SHOPPER.email,
      userName: DEMO_SHOPPER.userName,
      password: DEMO_SHOPPER.password,
    });
    const shopper = sessionFrom(signedIn, signedIn.json().userId);
    const claims = (await inject('GET', '/api/me/missing-cashback-claims', shopper.bearer)).json();
    expect(
      claims.map((claim: { state: string; invoiceUrl: string | null; reason: string | null }) => [
        claim.state,
        claim.invoiceUrl !== null,
        claim.reason,
      ]),
    ).toEqual([
      ['open', true, null],
      ['rejected', false, 'The store reports this order as returned.'],
      ['approved', false, null],
    ]);
    // The waiting claim is in the admins' queue, its invoice theirs to open.
    const queue = (
      await inject(
        'GET',
        '/api/admin/missing-cashback-claims?filter={"state":"open","kind":"claim"}',
        market.admin,
      )
    ).json();
    const waiting = queue.find((claim: { userId: number }) => claim.userId === shopper.id);
    expect((await inject('GET', waiting.invoiceUrl, market.admin)).headers['content-type']).toMatch(
      /^image\//,
    );
  });
});
