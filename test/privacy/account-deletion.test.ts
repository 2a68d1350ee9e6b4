import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { QueueName, QueueRegistry, ScheduledJob } from '@offers/api/platform';
import { ACCOUNT_DELETION } from '@offers/api/rules';
import { Redis } from 'ioredis';
import sharp from 'sharp';
import { BEARER_SIGN_IN, registerAndSignInUser, type Session, sessionFrom } from '../support/accounts.js';
import type { HttpResponse } from '../support/api-app.js';
import { clickOutDaysAgo } from '../support/claims.js';
import { multipart } from '../support/coupons.js';
import { apiPath, type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { untilEventsProcessed } from '../support/marketplace.js';
import {
  type CashbackShop,
  cashbackShop,
  cashbackShopWithStore,
  confirmedCashback,
} from '../support/payouts.js';
import { findPersonalValues, findPersonalValuesInRedis } from '../support/personal-data.js';
import { linkIn } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';

/**
 * Deleting an account: asked in the account area, refused while something must finish first,
 * confirmed through the mailed link, cancellable during the grace period (by signing in or by the
 * mailed link), and erased by the scheduled job, after which nothing of the person is left in the
 * database or in Redis while the earnings the law keeps remain.
 */
let market: EngagementMarket;
let shop: CashbackShop;

const SITE = 'http://shop.offers.test';

beforeAll(async () => {
  // The scheduler runs the erasure job as production does; the grace period is the default (7 days).
  market = await startEngagementMarket('account deletion', { roles: ['relay', 'events', 'scheduler'] });
  shop = await cashbackShopWithStore(market, 'Neem soap 15% off', { name: 'Neem House', address: 'Nagpur' });
}, 60_000);

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload: payload as string });

async function expectStatus(answer: Promise<HttpResponse>, status: number): Promise<HttpResponse> {
  const response = await answer;
  if (response.statusCode !== status)
    throw new Error(`expected ${status}, got ${response.statusCode}: ${response.body}`);
  return response;
}

const mailTo = (address: string, subject: RegExp) =>
  eventually(
    async () => market.smtp.to(address).find((mail) => subject.test(mail.subject)),
    `a mail to ${address} (${subject})`,
  );

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Opens a mailed link as a reader does: the page asks, its button posts to the same address. */
async function followLink(link: string): Promise<HttpResponse> {
  const asked = await expectStatus(inject('GET', apiPath(link)), 200);
  expect(asked.body).toContain('<form method="post">');
  return inject('POST', apiPath(link), FORM, 'List-Unsubscribe=One-Click');
}

const requestDeletion = (session: Session, body: Record<string, unknown> = {}) =>
  inject('POST', '/api/me/account-deletion', session.bearer, body);

/** A shopper with an earning settled (paid out or explicitly given up), so deletion may go ahead. */
async function plainShopper(overrides: Record<string, unknown> = {}) {
  const { registration, session } = await registerAndSignInUser(market.api.baseUrl, overrides);
  return { registration, session, email: registration.email as string };
}

async function confirmedBy(email: string) {
  const mail = await mailTo(email, /Confirm the deletion/);
  return linkIn(mail, `${SITE}/api/account-deletion/confirm`);
}

async function signIn(email: string, password: string) {
  return expectStatus(inject('POST', '/api/auth/users/login', BEARER_SIGN_IN, { email, password }), 200);
}

const deletionState = async (session: { id: number }, kind = 'shopper') =>
  (
    await market.api.dataSource.query(
      `SELECT state, erase_after FROM deletion_requests WHERE person_kind = $1 AND person_id = $2
       ORDER BY id DESC LIMIT 1`,
      [kind, session.id],
    )
  )[0];

const logOf = async (kind: string, id: number) =>
  (
    await market.api.dataSource.query(
      `SELECT action, acted_by AS "actedBy", detail FROM data_requests
       WHERE kind = 'deletion' AND person_kind = $1 AND person_id = $2 ORDER BY id`,
      [kind, id],
    )
  ).map((row: { action: string; actedBy: string }) => `${row.action} by ${row.actedBy}`);

/** Runs the erasure job through the workers' maintenance queue, as its schedule does, to its end. */
async function runErasureJob(until: () => Promise<boolean> = async () => true) {
  const maintenance = market.workers.module.get(QueueRegistry).get(QueueName.Maintenance);
  const job = await maintenance.add(ScheduledJob.EraseDueAccounts.name, {});
  await eventually(async () => (await job.getState()) === 'completed', 'the erasure job', 30_000);
  expect(await until()).toBe(true);
}

/** Moves a scheduled erasure's day to now, as if the grace period had passed. */
const graceOver = (session: { id: number }, kind = 'shopper') =>
  market.api.dataSource.query(
    `UPDATE deletion_requests SET erase_after = now() - interval '1 second'
     WHERE person_kind = $1 AND person_id = $2 AND state = 'scheduled'`,
    [kind, session.id],
  );

describe('deleting a shopper account', () => {
  it('erases everything of the person through the mailed link and the job, keeping the earning', async () => {
    const tag = randomBytes(4).toString('hex');
    const name = `Kavya Xq${tag}`;
    const address = `House ${tag}, Jasmine Street, Mysuru`;
    const clientAddress = `10.88.${Number.parseInt(tag.slice(0, 2), 16)}.${Number.parseInt(tag.slice(2, 4), 16) || 1}`;
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl, {
      userName: name,
      address,
    });
    const email = registration.email as string;
    const mobile = registration.mobileNumber as string;
    const bearer = { ...session.bearer, 'x-forwarded-for': clientAddress };

    await expectStatus(inject('POST', '/api/me/follows', bearer, { merchantId: shop.merchant.id }), 201);
    await expectStatus(inject('POST', `/api/coupons/${shop.couponId}/votes`, bearer, { worked: true }), 202);
    const clickId = await clickOutDaysAgo(market, shop.couponId, bearer, 2);
    const earningId = await confirmedCashback(market, shop, session, '400');
    const payout = await expectStatus(
      inject('POST', '/api/me/payouts', bearer, { amount: '300', upiId: `kavya${tag}@okaxis` }),
      201,
    );
    const invoice = await sharp({ create: { width: 40, height: 20, channels: 3, background: 'white' } })
      .jpeg()
      .toBuffer();
    const form = multipart(
      { clickId, orderId: `NH-${tag}`, orderDate: new Date().toISOString().slice(0, 10), amount: '250' },
      { invoice: { name: 'invoice.jpg', type: 'image/jpeg', bytes: invoice } },
    );
    const claim = await expectStatus(
      market.api.http.inject({
        method: 'POST',
        url: '/api/me/missing-cashback-claims',
        headers: { ...bearer, ...form.headers },
        payload: form.payload,
      }),
      201,
    );
    await expectStatus(
      inject('POST', '/api/newsletter', { 'x-forwarded-for': clientAddress }, { email }),
      202,
    );
    await mailTo(email, /./);

    // A payout on its way, then an open claim, then unpaid money: each refuses, naming itself.
    const refusedForPayout = await expectStatus(requestDeletion(session), 409);
    expect(refusedForPayout.json().message).toBe(ACCOUNT_DELETION.refused.pendingPayout);
    await expectStatus(inject('POST', `/api/admin/payouts/${payout.json().id}/process`, market.admin), 200);
    await expectStatus(
      inject('POST', `/api/admin/payouts/${payout.json().id}/pay`, market.admin, {
        bankReference: `UTR${tag}00`,
      }),
      200,
    );
    const refusedForClaim = await expectStatus(requestDeletion(session), 409);
    expect(refusedForClaim.json().message).toBe(ACCOUNT_DELETION.refused.openClaim);
    await expectStatus(
      inject('POST', `/api/admin/missing-cashback-claims/${claim.json().id}/reject`, market.admin, {
        reason: 'The store has no such order.',
      }),
      200,
    );
    const refusedForMoney = await expectStatus(requestDeletion(session), 409);
    expect(refusedForMoney.json()).toEqual({
      statusCode: 409,
      message: ACCOUNT_DELETION.refused.unpaidMoney,
      errors: { giveUpUnpaidMoney: [ACCOUNT_DELETION.refused.unpaidMoney] },
    });
    expect(await deletionState(session)).toBeUndefined();

    // Giving up the ₹100 left, explicitly: the request is recorded and the link mailed.
    const asked = await expectStatus(requestDeletion(session, { giveUpUnpaidMoney: true }), 202);
    expect(asked.json()).toEqual(
      expect.objectContaining({ message: ACCOUNT_DELETION.requested, state: 'awaiting_confirmation' }),
    );
    const confirmed = await expectStatus(followLink(await confirmedBy(email)), 200);
    expect(confirmed.body).toMatch(/will be deleted on/);
    // Every session ended at once; the mail says when and carries a cancel link.
    await expectStatus(inject('GET', '/api/me/profile', session.bearer), 401);
    const scheduledMail = await mailTo(email, /will be deleted/);
    expect(linkIn(scheduledMail, `${SITE}/api/account-deletion/cancel`)).toBeTruthy();
    const { erase_after: eraseAfter } = await deletionState(session);
    const graceDays = (new Date(eraseAfter).getTime() - Date.now()) / 86_400_000;
    expect(graceDays).toBeGreaterThan(6.9);
    expect(graceDays).toBeLessThanOrEqual(7);

    const [earningBefore] = await market.api.dataSource.query(
      'SELECT amount_paise, purchase_reference, state FROM earnings WHERE id = $1',
      [earningId],
    );
    await graceOver(session);
    await untilEventsProcessed(market, 20_000);
    const values = [name, email, mobile, address, clientAddress];
    const redis = market.test.environment;
    // Before: the values are in the tables. Events carry ids, so no job holds them; a probe that
    // does shows the Redis scan would find one in a hash, as BullMQ keeps a job's data.
    expect(await findPersonalValues(market.api.dataSource, values)).not.toEqual([]);
    const probe = new Redis(redis.REDIS_URL);
    await probe.hset(`${redis.QUEUE_PREFIX}:probe:1`, 'data', JSON.stringify({ email }));
    expect(await findPersonalValuesInRedis(redis.REDIS_URL, redis.QUEUE_PREFIX, [email])).toEqual([
      `${redis.QUEUE_PREFIX}:probe:1: ${email}`,
    ]);
    await probe.del(`${redis.QUEUE_PREFIX}:probe:1`);
    probe.disconnect();
    await runErasureJob(async () => (await deletionState(session)).state === 'erased');

    // No table holds any of the person's values: not the event log either, as events carry ids.
    expect(await findPersonalValues(market.api.dataSource, values)).toEqual([]);
    // Nor does Redis: no key, no job's data.
    expect(
      await findPersonalValuesInRedis(
        market.test.environment.REDIS_URL,
        market.test.environment.QUEUE_PREFIX,
        values,
      ),
    ).toEqual([]);
    const [earningAfter] = await market.api.dataSource.query(
      'SELECT amount_paise, purchase_reference, state FROM earnings WHERE id = $1',
      [earningId],
    );
    expect(earningAfter).toEqual(earningBefore);
    expect(earningAfter.purchase_reference).toBeTruthy();

    expect(await logOf('shopper', session.id)).toEqual([
      'requested by person',
      'confirmed by person',
      'erased by system',
    ]);
    const [erased] = await market.api.dataSource.query(
      `SELECT detail FROM data_requests WHERE kind = 'deletion' AND action = 'erased' AND person_id = $1`,
      [session.id],
    );
    expect(erased.detail.anonymised).toEqual(
      expect.objectContaining({ users: 1, missing_cashback_claims: 1 }),
    );
    expect(erased.detail.removed).toEqual(
      expect.objectContaining({ store_follows: 1, private_media: 1, newsletter_subscribers: 1 }),
    );
    // The events of the deletion name the request and the account by id only.
    const steps: Array<{ type: string; payload: Record<string, unknown> }> =
      await market.api.dataSource.query(
        `SELECT type, payload FROM outbox WHERE aggregate_type = 'DeletionRequest'
       AND payload->>'personId' = $1 ORDER BY position`,
        [String(session.id)],
      );
    expect(steps.map((step) => step.type)).toEqual([
      'AccountDeletionRequested',
      'AccountDeletionConfirmed',
      'AccountErased',
    ]);

    // Running the job again changes nothing.
    const logRows = (await logOf('shopper', session.id)).length;
    await runErasureJob();
    expect((await logOf('shopper', session.id)).length).toBe(logRows);
    await expectStatus(
      inject('POST', '/api/auth/users/login', BEARER_SIGN_IN, { email, password: registration.password }),
      401,
    );
  }, 180_000);

  it('is cancelled by signing in during the grace period', async () => {
    const { registration, session, email } = await plainShopper();
    await expectStatus(requestDeletion(session), 202);
    await expectStatus(followLink(await confirmedBy(email)), 200);

    const signedIn = await signIn(email, registration.password as string);
    const { eraseAfter } = signedIn.json().scheduledDeletion;
    expect(new Date(eraseAfter).getTime()).toBeGreaterThan(Date.now());
    const again = sessionFrom(signedIn, session.id);
    expect((await inject('GET', '/api/me/account-deletion', again.bearer)).json()).toEqual({
      state: 'scheduled',
      eraseAfter,
    });
    const cancelled = await expectStatus(
      inject('POST', '/api/me/account-deletion/cancel', again.bearer),
      200,
    );
    expect(cancelled.json().message).toBe(ACCOUNT_DELETION.cancelled);
    expect((await deletionState(session)).state).toBe('cancelled');
    expect((await signIn(email, registration.password as string)).json().scheduledDeletion).toBeUndefined();

    // Past the day it would have gone, the job leaves the account alone.
    await market.api.dataSource.query(
      "UPDATE deletion_requests SET erase_after = now() - interval '1 day' WHERE person_id = $1 AND person_kind = 'shopper'",
      [session.id],
    );
    await runErasureJob();
    await expectStatus(inject('GET', '/api/me/profile', again.bearer), 200);
    expect(await logOf('shopper', session.id)).toEqual([
      'requested by person',
      'confirmed by person',
      'cancelled by person',
    ]);
    // Nothing left to cancel.
    await expectStatus(inject('POST', '/api/me/account-deletion/cancel', again.bearer), 400);
  }, 60_000);

  it('is cancelled by the link in the mail, which then works no more', async () => {
    const { session, email } = await plainShopper();
    await expectStatus(requestDeletion(session), 202);
    // Asked twice while open: refused.
    expect((await expectStatus(requestDeletion(session), 409)).json().message).toBe(
      ACCOUNT_DELETION.refused.alreadyAsked,
    );
    await expectStatus(followLink(await confirmedBy(email)), 200);
    const cancelLink = linkIn(await mailTo(email, /will be deleted/), `${SITE}/api/account-deletion/cancel`);

    const cancelled = await expectStatus(followLink(cancelLink), 200);
    expect(cancelled.body).toContain('Your account will not be deleted.');
    expect((await deletionState(session)).state).toBe('cancelled');
    await expectStatus(followLink(cancelLink), 400);
    expect(await logOf('shopper', session.id)).toEqual([
      'requested by person',
      'confirmed by person',
      'cancelled by person',
    ]);
  }, 60_000);

  it('refuses a confirmation link that is forged, used or expired, changing nothing', async () => {
    const { session, email } = await plainShopper();
    await expectStatus(requestDeletion(session), 202);
    const link = await confirmedBy(email);
    const token = new URL(link).searchParams.get('token')!;
    const forged = `${token.slice(0, -4)}AAAA`;

    expect((await inject('GET', '/api/account-deletion/confirm?token=nonsense')).statusCode).toBe(400);
    const refused = await expectStatus(
      inject('POST', `/api/account-deletion/confirm?token=${encodeURIComponent(forged)}`, FORM, 'a=b'),
      400,
    );
    expect(refused.body).toContain(ACCOUNT_DELETION.invalidLink);
    // Its day passed: the link no longer confirms, and the person may ask again.
    await market.api.dataSource.query(
      "UPDATE deletion_requests SET confirm_before = now() - interval '1 second' WHERE person_id = $1 AND person_kind = 'shopper'",
      [session.id],
    );
    await expectStatus(followLink(link), 400);
    expect((await deletionState(session)).state).toBe('awaiting_confirmation');
    await expectStatus(inject('GET', '/api/me/profile', session.bearer), 200);
    expect((await inject('GET', '/api/me/account-deletion', session.bearer)).json()).toEqual({
      state: 'none',
    });
    await expectStatus(requestDeletion(session), 202);
    expect((await deletionState(session)).state).toBe('awaiting_confirmation');

    // A used link: confirmed once, the second time it is not one.
    const second = market.smtp.to(email).filter((mail) => /Confirm the deletion/.test(mail.subject));
    const fresh = await eventually(async () => {
      const mails = market.smtp.to(email).filter((mail) => /Confirm the deletion/.test(mail.subject));
      return mails.length > second.length || mails.length >= 2 ? mails.at(-1) : undefined;
    }, 'a second confirmation mail');
    const freshLink = linkIn(fresh, `${SITE}/api/account-deletion/confirm`);
    await expectStatus(followLink(freshLink), 200);
    await expectStatus(followLink(freshLink), 400);
    expect(await logOf('shopper', session.id)).toEqual([
      'requested by person',
      'lapsed by system',
      'requested by person',
      'confirmed by person',
    ]);
  }, 60_000);

  it('puts the erasure off while a payout asked for in the grace period is on its way', async () => {
    const { registration, session, email } = await plainShopper();
    await confirmedCashback(market, shop, session, '300');
    await expectStatus(requestDeletion(session, { giveUpUnpaidMoney: true }), 202);
    await expectStatus(followLink(await confirmedBy(email)), 200);
    const again = sessionFrom(await signIn(email, registration.password as string), session.id);
    const payout = await expectStatus(
      inject('POST', '/api/me/payouts', again.bearer, { amount: '300', upiId: 'meera.k@okhdfc' }),
      201,
    );
    await graceOver(session);
    await runErasureJob(async () => (await deletionState(session)).state === 'scheduled');
    expect(await logOf('shopper', session.id)).toEqual(['requested by person', 'confirmed by person']);

    await expectStatus(inject('POST', `/api/admin/payouts/${payout.json().id}/process`, market.admin), 200);
    await expectStatus(
      inject('POST', `/api/admin/payouts/${payout.json().id}/pay`, market.admin, {
        bankReference: 'UTR998877',
      }),
      200,
    );
    await runErasureJob(async () => (await deletionState(session)).state === 'erased');
    const [paid] = await market.api.dataSource.query('SELECT state, upi_id FROM payouts WHERE id = $1', [
      payout.json().id,
    ]);
    expect(paid.state).toBe('paid');
    expect(paid.upi_id).not.toBe('meera.k@okhdfc');
  }, 60_000);

  it('refuses the confirmation when money was confirmed since the request, changing nothing', async () => {
    const { session, email } = await plainShopper();
    await expectStatus(requestDeletion(session), 202);
    const link = await confirmedBy(email);
    await confirmedCashback(market, shop, session, '150');
    const refused = await expectStatus(followLink(link), 409);
    expect(refused.body).toContain('something must be finished first');
    expect((await deletionState(session)).state).toBe('awaiting_confirmation');
    await expectStatus(inject('GET', '/api/me/profile', session.bearer), 200);
    expect(await logOf('shopper', session.id)).toEqual(['requested by person']);
  }, 60_000);

  it('refuses a giveUpUnpaidMoney that is not a boolean, changing nothing', async () => {
    const { session } = await plainShopper();
    const refused = await expectStatus(requestDeletion(session, { giveUpUnpaidMoney: 'yes' }), 400);
    expect(refused.json().errors.giveUpUnpaidMoney).toEqual([ACCOUNT_DELETION.giveUpUnpaidMoney.invalid]);
    expect(await deletionState(session)).toBeUndefined();
  });
});

describe('deleting a merchant account', () => {
  it('is refused while cashback on its store is unpaid, and at erasure its coupons end', async () => {
    // A store whose shopper's cashback is confirmed but not paid: refused.
    const owing = await cashbackShop(market, { title: 'Ragi flour 10% off' });
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    await confirmedCashback(market, owing, shopper, '200');
    const refused = await expectStatus(
      inject('POST', '/api/merchant/account-deletion', owing.merchant.bearer, {}),
      409,
    );
    expect(refused.json().message).toBe(ACCOUNT_DELETION.refused.merchantUnpaidEarnings);

    // A merchant with a live coupon and nothing owed.
    const free = await cashbackShop(market, { title: `Silk saree ${randomBytes(4).toString('hex')}` });
    const coupon = await market.api.dataSource.query(
      "SELECT id FROM coupons WHERE merchant_id = $1 AND status IN ('live', 'pending')",
      [free.merchant.id],
    );
    expect(coupon.length).toBeGreaterThan(0);
    await expectStatus(inject('POST', '/api/merchant/account-deletion', free.merchant.bearer, {}), 202);
    const freeEmail = (
      await market.api.dataSource.query('SELECT email FROM merchants WHERE id = $1', [free.merchant.id])
    )[0].email as string;
    await expectStatus(followLink(await confirmedBy(freeEmail)), 200);
    await expectStatus(inject('GET', '/api/merchant/profile', free.merchant.bearer), 401);
    await graceOver(free.merchant, 'merchant');
    await untilEventsProcessed(market, 20_000);
    await runErasureJob(async () => (await deletionState(free.merchant, 'merchant'))?.state === 'erased');

    const [after] = await market.api.dataSource.query(
      'SELECT email, mobile, user_name, password_hash FROM merchants WHERE id = $1',
      [free.merchant.id],
    );
    expect(after).toEqual({ email: null, mobile: null, user_name: null, password_hash: null });
    const live = await market.api.dataSource.query(
      "SELECT id FROM coupons WHERE merchant_id = $1 AND status IN ('live', 'pending')",
      [free.merchant.id],
    );
    expect(live).toEqual([]);
    const ended = await market.api.dataSource.query(
      "SELECT count(*)::int AS n FROM outbox WHERE type = 'CouponEnded' AND payload->>'merchantId' = $1",
      [String(free.merchant.id)],
    );
    expect(ended[0].n).toBe(coupon.length);
    expect(await logOf('merchant', free.merchant.id)).toEqual([
      'requested by person',
      'confirmed by person',
      'erased by system',
    ]);
    // The store that still owes is untouched.
    const [owingAfter] = await market.api.dataSource.query('SELECT email FROM merchants WHERE id = $1', [
      owing.merchant.id,
    ]);
    expect(owingAfter.email).toBeTruthy();
  }, 120_000);
});
