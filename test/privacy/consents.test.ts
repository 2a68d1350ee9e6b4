import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AGE_CONFIRMATION, CONSENTS, PRIVACY_NOTICE_VERSION, STORE_FOLLOWS } from '@offers/api/rules';
import { StoreAlerts } from '@offers/workers/mail';
import {
  merchantRegistration,
  registerAndSignInMerchant,
  registerAndSignInUser,
  registrationAddress,
  type Session,
  userRegistration,
} from '../support/accounts.js';
import { apiPath, type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { approve, submitCoupon, untilEventsProcessed, untilListed } from '../support/marketplace.js';
import { linkIn } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';

/**
 * Consents at registration and in the account area: registering needs the 18-or-older
 * confirmation, each optional consent is a row under the notice's version, and withdrawing one
 * stops what it covered at once (store alerts with the follows kept; the newsletter's subscription).
 */
let market: EngagementMarket;

beforeAll(async () => {
  market = await startEngagementMarket('consents');
}, 60_000);

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload: payload as string });

const query = (sql: string, parameters: unknown[] = []) => market.api.dataSource.query(sql, parameters);

const consentRows = (userId: number) =>
  query(
    `SELECT purpose, given, notice_version AS "noticeVersion" FROM consents
     WHERE holder_kind = 'shopper' AND holder_id = $1 ORDER BY id`,
    [userId],
  );

const change = (session: Session, purpose: string, given: unknown) =>
  inject('PUT', `/api/me/consents/${purpose}`, session.bearer, { given });

const given = async (session: Session) =>
  Object.fromEntries(
    (
      (await inject('GET', '/api/me/consents', session.bearer)).json().consents as Array<{
        purpose: string;
        given: boolean;
      }>
    ).map((consent) => [consent.purpose, consent.given]),
  );

/** Noon in India on the day after today there: the store-alert sweep's next day. */
function tomorrowInIndia(): Date {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
  return new Date(Date.parse(`${today}T12:00:00+05:30`) + 24 * 3600_000);
}

async function untilMailsSettled() {
  await untilEventsProcessed(market);
  await eventually(async () => {
    const [{ waiting }] = await query(
      "SELECT count(*)::int AS waiting FROM outgoing_mails WHERE status = 'pending'",
    );
    return waiting === 0;
  }, 'every mail to be sent');
}

describe('registering', () => {
  it('refuses a shopper or a merchant without the 18-or-older confirmation, and stores nothing', async () => {
    for (const ageConfirmed of [undefined, false, 'no', '']) {
      const registration = userRegistration({ ageConfirmed, consents: ['newsletter'] });
      const refused = await inject('POST', '/api/auth/users/register', registrationAddress(), registration);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        statusCode: 400,
        errors: { ageConfirmed: [AGE_CONFIRMATION.required] },
      });
      const [{ users }] = await query('SELECT count(*)::int AS users FROM users WHERE email = $1', [
        registration.email,
      ]);
      expect(users).toBe(0);
      const [{ subscribers }] = await query(
        'SELECT count(*)::int AS subscribers FROM newsletter_subscribers WHERE lower(email) = lower($1)',
        [registration.email],
      );
      expect(subscribers).toBe(0);

      const merchant = merchantRegistration({ ageConfirmed });
      const refusedMerchant = await inject(
        'POST',
        '/api/auth/merchants/register',
        registrationAddress(),
        merchant,
      );
      expect(refusedMerchant.statusCode).toBe(400);
      expect(refusedMerchant.json().errors.ageConfirmed).toEqual([AGE_CONFIRMATION.required]);
      const [{ merchants }] = await query(
        'SELECT count(*)::int AS merchants FROM merchants WHERE email = $1',
        [merchant.email],
      );
      expect(merchants).toBe(0);
    }
    // A form's ticked box arrives as text: it counts.
    const { registration } = await registerAndSignInMerchant(market.api.baseUrl, { ageConfirmed: 'on' });
    expect(registration.email).toBeDefined();
  });

  it('refuses consents that are not the three purposes', async () => {
    for (const consents of ['newsletter', ['newsletter', 'sms'], [1]]) {
      const refused = await inject(
        'POST',
        '/api/auth/users/register',
        registrationAddress(),
        userRegistration({ consents }),
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors.consents).toEqual([CONSENTS.purposes]);
    }
  });

  it('records each consent, given or not, under the notice’s version, with events that carry ids only', async () => {
    const { session, registration } = await registerAndSignInUser(market.api.baseUrl, {
      consents: ['store_alerts', 'newsletter'],
    });
    expect(await consentRows(session.id)).toEqual([
      { purpose: 'newsletter', given: true, noticeVersion: PRIVACY_NOTICE_VERSION },
      { purpose: 'store_alerts', given: true, noticeVersion: PRIVACY_NOTICE_VERSION },
      { purpose: 'offers_by_mail', given: false, noticeVersion: PRIVACY_NOTICE_VERSION },
    ]);
    expect(await given(session)).toEqual({ newsletter: true, store_alerts: true, offers_by_mail: false });

    const events = await query(
      "SELECT payload FROM outbox WHERE type = 'ConsentRecorded' AND aggregate_id = $1 ORDER BY position",
      [`shopper:${session.id}`],
    );
    expect(events.map((event: { payload: object }) => event.payload)).toEqual([
      expect.objectContaining({
        holderKind: 'shopper',
        holderId: session.id,
        purpose: 'newsletter',
        given: true,
      }),
      expect.objectContaining({ purpose: 'store_alerts', given: true }),
      expect.objectContaining({ purpose: 'offers_by_mail', given: false }),
    ]);
    for (const { payload } of events) {
      expect(JSON.stringify(payload)).not.toContain(registration.email);
      expect(JSON.stringify(payload)).not.toContain(registration.userName);
    }

    // The newsletter consent subscribes the account's address by double opt-in.
    const [subscriber] = await query(
      'SELECT status FROM newsletter_subscribers WHERE lower(email) = lower($1)',
      [registration.email],
    );
    expect(subscriber).toEqual({ status: 'pending' });
  });

  it('gives nothing when no box is ticked', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    expect(await given(session)).toEqual({ newsletter: false, store_alerts: false, offers_by_mail: false });
  });
});

describe('the account’s consents', () => {
  it('refuses an unknown purpose or choice, and callers who are not shoppers', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    const unknown = await change(session, 'sms', true);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(CONSENTS.purpose);
    const badChoice = await change(session, 'newsletter', 'maybe');
    expect(badChoice.statusCode).toBe(400);
    expect(badChoice.json().errors.given).toEqual([CONSENTS.given]);
    expect(await consentRows(session.id)).toHaveLength(3);
    expect((await inject('GET', '/api/me/consents')).statusCode).toBe(401);
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl);
    expect((await inject('GET', '/api/me/consents', merchant.bearer)).statusCode).toBe(403);
  });

  it('stops store alerts at once when withdrawn, keeps the follows, and keeps the history', async () => {
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl, {
      brandName: 'Consent Herbals',
    });
    const goLive = async (title: string) => {
      const couponId = await submitCoupon(market, merchant, { title });
      expect((await approve(market, couponId)).statusCode).toBe(200);
      await untilListed(market, couponId);
    };
    await goLive('Flat 10% off on neem soap');
    const { session: shopper, registration } = await registerAndSignInUser(market.api.baseUrl, {
      consents: ['store_alerts'],
    });
    const followed = await inject('POST', '/api/me/follows', shopper.bearer, { merchantId: merchant.id });
    expect(followed.statusCode).toBe(201);
    expect(followed.json().message).toBe(STORE_FOLLOWS.followed);
    const alertsTo = () =>
      market.smtp.to(registration.email).filter((mail) => mail.headers.has('list-unsubscribe'));

    await goLive('Flat 20% off on tulsi tea');
    await eventually(async () => alertsTo().length === 1, 'the first store alert');

    const withdrawn = await change(shopper, 'store_alerts', false);
    expect(withdrawn.statusCode).toBe(200);
    expect(withdrawn.json().message).toBe(CONSENTS.recordedWithdrawn);
    expect(await given(shopper)).toMatchObject({ store_alerts: false });

    // The next day's digest of a newer offer: nothing goes, the alert is done, the follow stays.
    await goLive('Amla juice 1+1');
    await untilMailsSettled();
    await market.api.dataSource.transaction((manager) =>
      market.workers.module.get(StoreAlerts).mailDue(manager, tomorrowInIndia()),
    );
    await untilMailsSettled();
    expect(alertsTo()).toHaveLength(1);
    const [{ waiting }] = await query(
      'SELECT count(*)::int AS waiting FROM store_alerts WHERE user_id = $1 AND mailed_at IS NULL',
      [shopper.id],
    );
    expect(waiting).toBe(0);
    const follows = (await inject('GET', '/api/me/follows', shopper.bearer)).json();
    expect(follows).toEqual([expect.objectContaining({ merchantId: merchant.id })]);
    // Following while the consent is withdrawn says where the mails are turned on.
    const again = await inject('POST', '/api/me/follows', shopper.bearer, { merchantId: merchant.id });
    expect(again.json().message).toBe(STORE_FOLLOWS.followedWithoutAlerts);

    // Withdrawing again records nothing; giving it back is a new row, the history kept.
    expect((await change(shopper, 'store_alerts', 'false')).statusCode).toBe(200);
    expect((await change(shopper, 'store_alerts', true)).json().message).toBe(CONSENTS.recordedGiven);
    expect(
      (await consentRows(shopper.id))
        .filter((row: { purpose: string }) => row.purpose === 'store_alerts')
        .map((row: { given: boolean }) => row.given),
    ).toEqual([true, false, true]);
  });

  it('unsubscribes the newsletter at once when withdrawn: the next campaign does not reach the account', async () => {
    const { session, registration } = await registerAndSignInUser(market.api.baseUrl);
    expect((await change(session, 'newsletter', true)).statusCode).toBe(200);
    const confirmation = await eventually(
      async () =>
        market.smtp.to(registration.email).find((mail) => mail.text.includes('/api/newsletter/confirm')),
      'a confirmation mail',
    );
    expect(
      (await inject('GET', apiPath(linkIn(confirmation, 'http://shop.offers.test/api/newsletter/confirm'))))
        .statusCode,
    ).toBe(200);
    const subscription = async () =>
      (
        await query('SELECT status FROM newsletter_subscribers WHERE lower(email) = lower($1)', [
          registration.email,
        ])
      )[0].status;
    expect(await subscription()).toBe('confirmed');
    expect(await given(session)).toMatchObject({ newsletter: true });

    // A campaign mail already queued for the address, not yet due: withdrawing drops it too.
    const draft = await inject('POST', '/api/admin/campaigns', market.admin, {
      subject: 'Queued before withdrawal',
      body: 'Never sent.',
    });
    const [queued] = await query(
      `INSERT INTO outgoing_mails (idempotency_key, template, recipient, language, subject, text_body, html_body,
                                   campaign_id, next_attempt_at)
       VALUES ($1, 'campaign', $2, 'en', 'Queued before withdrawal', 'Never sent.', '<p>Never sent.</p>', $3,
               now() + interval '1 hour')
       RETURNING id`,
      [`campaign-${draft.json().id}:withdrawal-test`, registration.email, draft.json().id],
    );

    expect((await change(session, 'newsletter', false)).statusCode).toBe(200);
    expect(await subscription()).toBe('unsubscribed');
    const [dropped] = await query('SELECT status FROM outgoing_mails WHERE id = $1', [queued.id]);
    expect(dropped.status).toBe('failed');
    const [{ skipped }] = await query('SELECT skipped_count AS skipped FROM campaigns WHERE id = $1', [
      draft.json().id,
    ]);
    expect(skipped).toBe(1);
    const [{ events }] = await query(
      `SELECT array_agg(type ORDER BY position) AS events FROM outbox WHERE aggregate_type = 'NewsletterSubscriber'
       AND aggregate_id = (SELECT id::text FROM newsletter_subscribers WHERE lower(email) = lower($1))`,
      [registration.email],
    );
    expect(events).toEqual([
      'NewsletterConfirmationRequested',
      'NewsletterSubscriptionConfirmed',
      'NewsletterUnsubscribed',
    ]);

    // A reader of the public form still gets the campaign; the account that withdrew does not.
    const reader = `reader.${Date.now()}@example.in`;
    await query(
      "INSERT INTO newsletter_subscribers (email, language, status, confirmed_at) VALUES ($1, 'en', 'confirmed', now())",
      [reader],
    );
    const created = await inject('POST', '/api/admin/campaigns', market.admin, {
      subject: 'Consent week offers',
      body: 'Only for those who asked.',
    });
    expect(created.statusCode).toBe(201);
    const started = await inject('POST', `/api/admin/campaigns/${created.json().id}/send`, market.admin);
    expect(started.statusCode).toBe(202);
    await eventually(async () => market.smtp.to(reader).length > 0, 'the campaign to the reader');
    await untilMailsSettled();
    expect(market.smtp.to(registration.email).map((mail) => mail.subject)).not.toContain(
      'Consent week offers',
    );
  });

  it('features a campaign’s offers to an account only with its offers-by-mail consent', async () => {
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl, {
      brandName: 'Offer Mills',
    });
    const couponId = await submitCoupon(market, merchant, { title: 'Millet cookies at ₹60' });
    expect((await approve(market, couponId)).statusCode).toBe(200);
    await untilListed(market, couponId);
    const { registration: withOffers } = await registerAndSignInUser(market.api.baseUrl, {
      consents: ['newsletter', 'offers_by_mail'],
    });
    const { session: newsOnly, registration: withoutOffers } = await registerAndSignInUser(
      market.api.baseUrl,
      {
        consents: ['newsletter', 'offers_by_mail'],
      },
    );
    // The confirmation links are the double opt-in's own test: here both addresses confirmed it.
    await query(
      "UPDATE newsletter_subscribers SET status = 'confirmed', confirmed_at = now() WHERE lower(email) = ANY($1)",
      [[withOffers.email.toLowerCase(), withoutOffers.email.toLowerCase()]],
    );
    expect((await change(newsOnly, 'offers_by_mail', false)).statusCode).toBe(200);

    const created = await inject('POST', '/api/admin/campaigns', market.admin, {
      subject: 'Millet month',
      body: 'Why millets are back.',
      featuredCouponIds: [couponId],
    });
    expect(created.statusCode).toBe(201);
    expect(
      (await inject('POST', `/api/admin/campaigns/${created.json().id}/send`, market.admin)).statusCode,
    ).toBe(202);
    const campaignTo = (email: string) =>
      eventually(
        async () => market.smtp.to(email).find((mail) => mail.subject === 'Millet month'),
        `the campaign to ${email}`,
      );
    expect((await campaignTo(withOffers.email)).text).toContain('Millet cookies at ₹60');
    const plain = await campaignTo(withoutOffers.email);
    expect(plain.text).toContain('Why millets are back.');
    expect(plain.text).not.toContain('Millet cookies');
  });

  it('follows the newsletter’s mailed links: confirming gives the consent, unsubscribing withdraws it', async () => {
    const { session, registration } = await registerAndSignInUser(market.api.baseUrl);
    // The public form, signed out, with the account's address.
    expect((await inject('POST', '/api/newsletter', {}, { email: registration.email })).statusCode).toBe(202);
    const confirmation = await eventually(
      async () =>
        market.smtp.to(registration.email).find((mail) => mail.text.includes('/api/newsletter/confirm')),
      'a confirmation mail',
    );
    await inject('GET', apiPath(linkIn(confirmation, 'http://shop.offers.test/api/newsletter/confirm')));
    expect(await given(session)).toMatchObject({ newsletter: true });

    const unsubscribe = String(confirmation.headers.get('list-unsubscribe')).slice(1, -1);
    expect((await inject('POST', apiPath(unsubscribe))).statusCode).toBe(200);
    expect(await given(session)).toMatchObject({ newsletter: false });
    expect(
      (await consentRows(session.id))
        .filter((row: { purpose: string }) => row.purpose === 'newsletter')
        .map((row: { given: boolean }) => row.given),
    ).toEqual([false, true, false]);
  });
});
