import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CouponApproved, type PublishedEvent } from '@offers/api/events';
import { validateEnvironment } from '@offers/api/platform';
import { waitingAlerts } from '@offers/api/read-models';
import { marketClock, PRIVACY_NOTICE_VERSION, STORE_ALERTS, STORE_FOLLOWS } from '@offers/api/rules';
import { EventDispatcher } from '@offers/workers/events';
import { STORE_ALERT_BATCH, StoreAlerts, StoreAlertsConsumer } from '@offers/workers/mail';
import type { EntityManager } from 'typeorm';
import { registerAndSignInMerchant, registerAndSignInUser, type Session } from '../support/accounts.js';
import { apiPath, type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { approve, submitCoupon, untilEventsProcessed, untilListed } from '../support/marketplace.js';
import { linkIn } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';

let market: EngagementMarket;

/** Followers who gave the store-alerts consent at registration: the alerts are theirs to get. */
const WITH_ALERTS = { consents: ['store_alerts'] };

beforeAll(async () => {
  market = await startEngagementMarket('store follows');
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

const follow = (session: Session, merchantId: unknown) =>
  inject('POST', '/api/me/follows', session.bearer, { merchantId });

const follows = async (session: Session) => (await inject('GET', '/api/me/follows', session.bearer)).json();

/** A confirmed merchant with a store name of its own making, and a live coupon titled `title`. */
async function storeWithOffer(storeName: string, title: string) {
  const { session, registration } = await registerAndSignInMerchant(market.api.baseUrl, {
    brandName: storeName,
  });
  const couponId = await goLive(session, title);
  return { merchant: session, registration, couponId };
}

async function goLive(merchant: Session, title: string) {
  const couponId = await submitCoupon(market, merchant, { title });
  expect((await approve(market, couponId)).statusCode).toBe(200);
  await untilListed(market, couponId);
  return couponId;
}

const storeAlertsTo = (email: string) =>
  market.smtp.to(email).filter((mail) => mail.headers.has('list-unsubscribe'));

/** Waits for the first store alert to `email`. */
const firstAlertTo = (email: string) =>
  eventually(async () => {
    const mails = storeAlertsTo(email);
    return mails.length > 0 && mails;
  }, `a store alert to ${email}`);

/** Waits until every event is applied and every recorded mail was handed to the SMTP server. */
async function untilMailsSettled() {
  await untilEventsProcessed(market);
  await eventually(async () => {
    const [{ waiting }] = await market.api.dataSource.query(
      "SELECT count(*)::int AS waiting FROM outgoing_mails WHERE status = 'pending'",
    );
    return waiting === 0;
  }, 'every mail to be sent');
}

/** Noon (or `hour`) in India on the day after today there. */
function tomorrowInIndia(hour = 12): Date {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
  return new Date(Date.parse(`${today}T${String(hour).padStart(2, '0')}:00:00+05:30`) + 24 * 3600_000);
}

describe('following a store', () => {
  it('follows, lists with live coupons, and unfollows; repeats change nothing', async () => {
    const store = await storeWithOffer('Follow Me Beauty', 'Flat 20% off on kajal');
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl, WITH_ALERTS);

    const first = await follow(shopper, store.merchant.id);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      merchantId: store.merchant.id,
      storeName: 'Follow Me Beauty',
      slug: 'follow-me-beauty',
      liveCoupons: 1,
      message: STORE_FOLLOWS.followed,
    });
    // A number sent as text, as a form would, follows too; the store is followed once.
    const again = await follow(shopper, String(store.merchant.id));
    expect(again.statusCode).toBe(200);
    const listed = await follows(shopper);
    expect(listed).toEqual([expect.objectContaining({ merchantId: store.merchant.id, liveCoupons: 1 })]);
    expect(Date.parse(listed[0].followedAt)).not.toBeNaN();

    expect((await inject('DELETE', `/api/me/follows/${store.merchant.id}`, shopper.bearer)).statusCode).toBe(
      204,
    );
    expect((await inject('DELETE', `/api/me/follows/${store.merchant.id}`, shopper.bearer)).statusCode).toBe(
      204,
    );
    expect(await follows(shopper)).toEqual([]);

    const [{ events }] = await market.api.dataSource.query(
      `SELECT array_agg(type ORDER BY position) AS events FROM outbox WHERE aggregate_type = 'StoreFollower'
       AND aggregate_id = $1`,
      [String(shopper.id)],
    );
    expect(events).toEqual(['StoreFollowed', 'StoreUnfollowed']);
  });

  it('refuses what is not a store shoppers can see, and callers who are not shoppers', async () => {
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    const { session: unconfirmed } = await registerAndSignInMerchant(
      market.api.baseUrl,
      {},
      { confirmEmail: false },
    );
    const { session: hidden } = await registerAndSignInMerchant(market.api.baseUrl);
    await market.api.dataSource.query('UPDATE merchants SET store_hidden = true WHERE id = $1', [hidden.id]);

    for (const merchantId of [undefined, 'abc', 0, -3, 1.5, '']) {
      const response = await follow(shopper, merchantId);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.merchantId).toEqual([STORE_FOLLOWS.merchantIdRequired]);
    }
    for (const merchantId of [2_000_000_000, unconfirmed.id, hidden.id]) {
      const response = await follow(shopper, merchantId);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(STORE_FOLLOWS.notFound);
    }
    expect((await inject('DELETE', '/api/me/follows/abc', shopper.bearer)).statusCode).toBe(400);

    const store = await registerAndSignInMerchant(market.api.baseUrl);
    expect((await inject('POST', '/api/me/follows', {}, { merchantId: store.session.id })).statusCode).toBe(
      401,
    );
    expect((await follow(store.session, store.session.id)).statusCode).toBe(403);
    expect((await inject('GET', '/api/me/follows', store.session.bearer)).statusCode).toBe(403);
    expect(await follows(shopper)).toEqual([]);
  });

  it(`follows at most ${STORE_FOLLOWS.maxPerAccount} stores`, async () => {
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    const { session: template } = await registerAndSignInMerchant(market.api.baseUrl);
    const clones: Array<{ id: number }> = await market.api.dataSource.query(
      `INSERT INTO merchants (merchant_name, brand_name, industry, category, address, email, mobile, merchant_url,
                              user_name, password_hash, referral_code, referred_by_code, referred_by_type,
                              is_email_confirmed, slug)
       SELECT merchant_name, brand_name || ' ' || g, industry, category, address, 'clone' || g || '.' || email,
              '7' || lpad(g::text, 9, '0'), merchant_url, user_name || 'c' || g, password_hash,
              referral_code || 'C' || g, referred_by_code, referred_by_type, true, slug || '-c' || g
       FROM merchants, generate_series(1, $2::int) g WHERE id = $1 RETURNING id`,
      [template.id, STORE_FOLLOWS.maxPerAccount],
    );
    await market.api.dataSource.query(
      'INSERT INTO store_follows (user_id, merchant_id) SELECT $1, unnest($2::int[])',
      [shopper.id, clones.slice(1).map(({ id }) => id)],
    );

    // The last place is taken by one of two requests at once, never both.
    const [a, b] = await Promise.all([follow(shopper, clones[0].id), follow(shopper, template.id)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.json().message).toBe(STORE_FOLLOWS.tooMany);
    expect(await follows(shopper)).toHaveLength(STORE_FOLLOWS.maxPerAccount);
    // A store already followed is still answered 200 at the limit.
    expect((await follow(shopper, clones[5].id)).statusCode).toBe(200);
  });
});

describe('alerts of new offers', () => {
  it('mails each follower in their language once a day per store, with a digest of the later offers the next day', async () => {
    const store = await storeWithOffer('Alert Glow', 'Flat 10% off on face wash');
    const { session: asha, registration: ashaAccount } = await registerAndSignInUser(market.api.baseUrl, {
      ...WITH_ALERTS,
      language: 'hi',
    });
    const { session: ravi, registration: raviAccount } = await registerAndSignInUser(
      market.api.baseUrl,
      WITH_ALERTS,
    );
    expect((await follow(asha, store.merchant.id)).statusCode).toBe(201);
    expect((await follow(ravi, store.merchant.id)).statusCode).toBe(201);

    // Offers live before the follow are not announced; the first one after it is, at once.
    const serum = await goLive(store.merchant, 'Flat 40% off on face serums');
    const [hindi] = await firstAlertTo(ashaAccount.email);
    expect(hindi.subject).toBe('Alert Glow पर नया: Flat 40% off on face serums');
    expect(hindi.text).toContain('आपके फ़ॉलो किए गए स्टोर Alert Glow पर एक नया ऑफ़र है');
    expect(hindi.text).toContain(`http://shop.offers.test/hi/store/alert-glow#coupon-${serum}-title`);
    expect(hindi.text).not.toContain('face wash');
    expect(hindi.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const [english] = await firstAlertTo(raviAccount.email);
    expect(english.subject).toBe('New at Alert Glow: Flat 40% off on face serums');
    expect(english.text).toContain('http://shop.offers.test/store/alert-glow');

    // Two more offers the same day: no second mail today.
    const lipstick = await goLive(store.merchant, 'Buy 1 get 1 on lipsticks');
    const shampoo = await goLive(store.merchant, 'Flat ₹150 off on shampoo');
    await untilMailsSettled();
    expect(storeAlertsTo(ashaAccount.email)).toHaveLength(1);
    expect(storeAlertsTo(raviAccount.email)).toHaveLength(1);

    // One of them ends before the next day's mail: it is not announced.
    await market.api.dataSource.query("UPDATE coupons SET status = 'withdrawn' WHERE id = $1", [shampoo]);
    const alerts = market.workers.module.get(StoreAlerts);
    const mailed = await market.api.dataSource.transaction((manager) =>
      alerts.mailDue(manager, tomorrowInIndia()),
    );
    expect(mailed).toBe(2);
    // Nothing more is due that day, however often the sweep runs.
    await expect(
      market.api.dataSource.transaction((manager) => alerts.mailDue(manager, tomorrowInIndia(18))),
    ).resolves.toBe(0);
    await untilMailsSettled();
    const [, digest] = storeAlertsTo(raviAccount.email);
    expect(digest.subject).toBe('New at Alert Glow: Buy 1 get 1 on lipsticks');
    expect(digest.text).toContain(`#coupon-${lipstick}-title`);
    expect(digest.text).not.toContain('shampoo');
    expect(storeAlertsTo(ashaAccount.email)).toHaveLength(2);
  });

  it('lists the day’s waiting offers together in the next day’s digest', async () => {
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl, {
      brandName: 'Digest Naturals',
    });
    const { session: shopper, registration } = await registerAndSignInUser(market.api.baseUrl, {
      ...WITH_ALERTS,
      language: 'te',
    });
    expect((await follow(shopper, merchant.id)).statusCode).toBe(201);
    await goLive(merchant, 'Neem face pack at ₹99');
    await goLive(merchant, 'Aloe gel 2 for 1');
    await goLive(merchant, 'Free kumkumadi oil sample');
    await untilMailsSettled();
    expect(storeAlertsTo(registration.email)).toHaveLength(1);

    await market.api.dataSource.transaction((manager) =>
      market.workers.module.get(StoreAlerts).mailDue(manager, tomorrowInIndia()),
    );
    await untilMailsSettled();
    const [, digest] = storeAlertsTo(registration.email);
    expect(digest.subject).toBe('Digest Naturals‌లో 2 కొత్త ఆఫర్లు');
    expect(digest.text).toContain('Aloe gel 2 for 1');
    expect(digest.text).toContain('Free kumkumadi oil sample');
    expect(digest.text).toContain('http://shop.offers.test/te/store/digest-naturals');
  });

  it('drops the waiting offers of a store hidden before the digest: no mail, the alerts done', async () => {
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl, {
      brandName: 'Hidden Later Herbs',
    });
    const { session: shopper, registration } = await registerAndSignInUser(market.api.baseUrl, WITH_ALERTS);
    expect((await follow(shopper, merchant.id)).statusCode).toBe(201);
    await goLive(merchant, 'Tulsi tea at ₹49');
    await goLive(merchant, 'Ashwagandha 1+1');
    await untilMailsSettled();
    expect(storeAlertsTo(registration.email)).toHaveLength(1);
    await market.api.dataSource.query('UPDATE merchants SET store_hidden = true WHERE id = $1', [
      merchant.id,
    ]);

    await market.api.dataSource.transaction((manager) =>
      market.workers.module.get(StoreAlerts).mailDue(manager, tomorrowInIndia()),
    );
    await untilMailsSettled();
    expect(storeAlertsTo(registration.email)).toHaveLength(1);
    const [{ waiting }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS waiting FROM store_alerts WHERE user_id = $1 AND mailed_at IS NULL',
      [shopper.id],
    );
    expect(waiting).toBe(0);
  });

  it('counts the offers a digest does not list in the follower’s language: one more', async () => {
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl, {
      brandName: 'Ginti Herbals',
    });
    const { session: sita, registration: sitaAccount } = await registerAndSignInUser(market.api.baseUrl, {
      ...WITH_ALERTS,
      language: 'te',
    });
    const { session: ravi, registration: raviAccount } = await registerAndSignInUser(
      market.api.baseUrl,
      WITH_ALERTS,
    );
    expect((await follow(sita, merchant.id)).statusCode).toBe(201);
    expect((await follow(ravi, merchant.id)).statusCode).toBe(201);
    await goLive(merchant, 'Tulsi face wash 10% off');
    await firstAlertTo(sitaAccount.email);
    // The day's mail is sent: the next ones wait for tomorrow's, one more than it lists.
    for (let offer = 1; offer <= STORE_ALERTS.maxOffersPerMail + 1; offer += 1) {
      const couponId = await submitCoupon(market, merchant, { title: `Herbal offer ${offer}` });
      expect((await approve(market, couponId)).statusCode).toBe(200);
    }
    await untilMailsSettled();
    await market.api.dataSource.transaction((manager) =>
      market.workers.module.get(StoreAlerts).mailDue(manager, tomorrowInIndia()),
    );
    await untilMailsSettled();

    const [, telugu] = storeAlertsTo(sitaAccount.email);
    const [, english] = storeAlertsTo(raviAccount.email);
    expect(telugu.text).toContain('మరో 1 ఆఫర్ స్టోర్‌లో ఉంది.');
    expect(telugu.subject).toBe(`Ginti Herbals‌లో ${STORE_ALERTS.maxOffersPerMail + 1} కొత్త ఆఫర్లు`);
    expect(english.text).toContain('And 1 more at the store.');
  });

  it('titles an offer in the follower’s language where the coupon has it, English otherwise', async () => {
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl, {
      brandName: 'Bhasha Beauty',
    });
    const { session: asha, registration: ashaAccount } = await registerAndSignInUser(market.api.baseUrl, {
      ...WITH_ALERTS,
      language: 'hi',
    });
    const { session: sita, registration: sitaAccount } = await registerAndSignInUser(market.api.baseUrl, {
      ...WITH_ALERTS,
      language: 'te',
    });
    expect((await follow(asha, merchant.id)).statusCode).toBe(201);
    expect((await follow(sita, merchant.id)).statusCode).toBe(201);
    const couponId = await submitCoupon(market, merchant, {
      title: 'Kajal at half price',
      titleHi: 'काजल आधी कीमत पर',
      descriptionHi: 'सभी रंगों पर।',
    });
    expect((await approve(market, couponId)).statusCode).toBe(200);

    const [hindi] = await firstAlertTo(ashaAccount.email);
    const [telugu] = await firstAlertTo(sitaAccount.email);
    expect(hindi.subject).toBe('Bhasha Beauty पर नया: काजल आधी कीमत पर');
    expect(telugu.subject).toContain('Kajal at half price');
  });

  it('records one mail per follower and store however often the event is delivered', async () => {
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl, {
      brandName: 'Twice Told',
    });
    const { session: shopper, registration } = await registerAndSignInUser(market.api.baseUrl, WITH_ALERTS);
    expect((await follow(shopper, merchant.id)).statusCode).toBe(201);
    const couponId = await goLive(merchant, 'Flat 30% off on sunscreen');
    await untilMailsSettled();

    const [row] = await market.api.dataSource.query(
      `SELECT id, type, aggregate_type AS "aggregateType", aggregate_id AS "aggregateId", payload,
              occurred_at AS "occurredAt", position FROM outbox WHERE type = $1 AND aggregate_id = $2`,
      [CouponApproved.type, String(couponId)],
    );
    const event = { ...row, occurredAt: new Date(row.occurredAt).toISOString() } as PublishedEvent;
    // Delivered again through the dispatcher (its inbox skips it), and handed to the consumer
    // itself twice more, past the inbox: the day's mail key still holds it to one.
    await market.workers.module.get(EventDispatcher).dispatch(event);
    const consumer = market.workers.module.get(StoreAlertsConsumer);
    for (let i = 0; i < 2; i += 1)
      await market.api.dataSource.transaction((manager) => consumer.handle(event, manager));
    await untilMailsSettled();
    const [{ recorded }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS recorded FROM outgoing_mails WHERE recipient = $1 AND template = $2',
      [registration.email, 'store-alert'],
    );
    expect(recorded).toBe(1);
    expect(storeAlertsTo(registration.email)).toHaveLength(1);
  });

  it('holds alerts in the quiet hours until the morning', async () => {
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl, {
      brandName: 'Night Owl Cosmetics',
    });
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl, WITH_ALERTS);
    expect((await follow(shopper, merchant.id)).statusCode).toBe(201);
    await goLive(merchant, 'Flat 50% off on eyeliners');
    await untilMailsSettled();
    // Mailed at once here (the tests' setting); the next day's are what the quiet hours hold.
    await goLive(merchant, 'Early bird: 25% off on mascara');
    await untilEventsProcessed(market);

    const quiet = new StoreAlerts(
      validateEnvironment({ ...market.test.variables, STORE_ALERT_QUIET_HOURS: '22-7' }),
    );
    const sweep = (at: Date) => market.api.dataSource.transaction((manager) => quiet.mailDue(manager, at));
    expect(await sweep(tomorrowInIndia(23))).toBe(0);
    expect(await sweep(new Date(tomorrowInIndia(6).getTime() + 59 * 60_000))).toBe(0);
    expect(await sweep(tomorrowInIndia(7))).toBe(1);
  });

  it('stops a follower’s alerts from the mail’s unsubscribe link, without signing in', async () => {
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl, {
      brandName: 'Unsub & Co <b>',
    });
    const { session: shopper, registration } = await registerAndSignInUser(market.api.baseUrl, {
      ...WITH_ALERTS,
      language: 'hi',
    });
    expect((await follow(shopper, merchant.id)).statusCode).toBe(201);
    await goLive(merchant, 'Flat 15% off on hair oil');
    const [mail] = await firstAlertTo(registration.email);
    const link = linkIn(mail, 'http://shop.offers.test/api/follows/unsubscribe?token=');
    expect(mail.headers.get('list-unsubscribe')).toBe(`<${link}>`);
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const oneClick = { 'content-type': 'application/x-www-form-urlencoded' };
    const post = (url: string, headers = oneClick) =>
      market.api.http.inject({ method: 'POST', url, headers, payload: 'List-Unsubscribe=One-Click' });

    const token = new URL(link).searchParams.get('token')!;
    for (const forged of [`${token.slice(0, -2)}xx`, token.replace(/^\d+/, '1'), 'garbage', '']) {
      const refused = await post(`/api/follows/unsubscribe?token=${encodeURIComponent(forged)}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('This link is not valid any more.');
    }
    expect(await follows(shopper)).toHaveLength(1);

    // Following the link (as a mail scanner does) changes nothing: it asks in the mail's language.
    const page = await inject('GET', apiPath(link));
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('इस स्टोर के अलर्ट बंद करें?');
    expect(page.body).toContain('<form method="post">');
    expect(await follows(shopper)).toHaveLength(1);

    // The page's button: a form POST from the site's own page. It acts.
    const confirmed = await post(apiPath(link), {
      ...oneClick,
      origin: 'http://shop.offers.test',
    } as typeof oneClick);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('अब आप Unsub &amp; Co &lt;b&gt; को फ़ॉलो नहीं करते');
    expect(confirmed.body).not.toContain('<b>');
    expect(await follows(shopper)).toEqual([]);
    // The one-click POST of a mail client, after the fact, answers the same.
    expect((await post(apiPath(link))).statusCode).toBe(200);

    await goLive(merchant, 'Flat 25% off on hair serum');
    await market.api.dataSource.transaction((manager) =>
      market.workers.module.get(StoreAlerts).mailDue(manager, tomorrowInIndia()),
    );
    await untilMailsSettled();
    expect(storeAlertsTo(registration.email)).toHaveLength(1);
  });
});

describe('a sweep of more followers than one batch', () => {
  let merchantId: number;
  let couponId: number;
  let laterCoupon: number;
  let template: Session;

  /** `count` new followers of the store (copies of one shopper), each with an alert of `alerted` waiting. */
  async function followersWaiting(
    manager: Pick<EntityManager, 'query'>,
    count: number,
    alerted: number,
  ): Promise<number[]> {
    const tag = `f${Date.now().toString(36)}`;
    const users: Array<{ id: number }> = await manager.query(
      `INSERT INTO users (user_name, email, mobile_number, password_hash, referral_code, referred_by, address, language)
       SELECT user_name || $2 || g, $2 || g || '.' || email, mobile_number || $2 || g, password_hash,
              referral_code || $2 || g, referred_by, address, language
       FROM users, generate_series(1, $3::int) g WHERE id = $1 ORDER BY g RETURNING id`,
      [template.id, tag, count],
    );
    const ids = users.map(({ id }) => id).sort((a, b) => a - b);
    await manager.query('INSERT INTO store_follows (user_id, merchant_id) SELECT unnest($1::int[]), $2', [
      ids,
      merchantId,
    ]);
    // Each has agreed to store alerts, as a follower who gets them has.
    await manager.query(
      `INSERT INTO consents (holder_kind, holder_id, purpose, given, notice_version)
       SELECT 'shopper', unnest($1::int[]), 'store_alerts', true, $2`,
      [ids, PRIVACY_NOTICE_VERSION],
    );
    await alertAgain(manager, ids, alerted);
    return ids;
  }

  const alertAgain = (manager: Pick<EntityManager, 'query'>, userIds: number[], alerted: number) =>
    manager.query(
      'INSERT INTO store_alerts (user_id, coupon_id, merchant_id) SELECT unnest($1::int[]), $2, $3',
      [userIds, alerted, merchantId],
    );

  beforeAll(async () => {
    const store = await storeWithOffer('Crowd Favourite', 'Flat 5% off on everything');
    merchantId = store.merchant.id;
    couponId = store.couponId;
    laterCoupon = await submitCoupon(market, store.merchant, { title: 'Flat 8% off on everything' });
    ({ session: template } = await registerAndSignInUser(market.api.baseUrl));
  });

  it('reads and locks only the pairs after where the last batch stopped', async () => {
    const followers = await followersWaiting(market.api.dataSource, 5, couponId);
    const { day } = marketClock(tomorrowInIndia());
    const pairs = (batch: { alerts: Array<{ userId: number }> }) => batch.alerts.map(({ userId }) => userId);
    const runner = market.api.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const first = await waitingAlerts(runner.manager, day, merchantId, 2);
      expect(pairs(first)).toEqual(followers.slice(0, 2));
      expect(first.next).toEqual({ userId: followers[1], merchantId });
      // Another sender finds every other follower's alert free: the batch locked its own alone.
      const [{ free }] = await market.api.dataSource.query(
        `SELECT count(*)::int AS free FROM (SELECT 1 FROM store_alerts WHERE merchant_id = $1 AND mailed_at IS NULL
         FOR UPDATE SKIP LOCKED) free`,
        [merchantId],
      );
      expect(free).toBe(followers.length - 2);

      const second = await waitingAlerts(runner.manager, day, merchantId, 2, first.next);
      expect(pairs(second)).toEqual(followers.slice(2, 4));
      const last = await waitingAlerts(runner.manager, day, merchantId, 2, second.next);
      expect(pairs(last)).toEqual(followers.slice(4));
      expect(last.next).toBeUndefined();
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
      await market.api.dataSource.query('DELETE FROM store_alerts WHERE user_id = ANY($1::int[])', [
        followers,
      ]);
    }
  });

  it('mails every waiting follower once, past the pairs already mailed that day', async () => {
    // Undone at the end: the sweep's mails are never sent.
    const runner = market.api.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const { manager } = runner;
      const alerts = market.workers.module.get(StoreAlerts);
      const followers = await followersWaiting(manager, STORE_ALERT_BATCH + 2, couponId);
      const recorded = async () =>
        (
          await manager.query(
            `SELECT count(*)::int AS mails, count(DISTINCT idempotency_key)::int AS keys FROM outgoing_mails
             WHERE idempotency_key LIKE $1`,
            [`store-alert:%:${merchantId}:${marketClock(tomorrowInIndia()).day}`],
          )
        )[0];
      expect(await alerts.mailDue(manager, tomorrowInIndia(), merchantId)).toBe(followers.length);
      expect(await recorded()).toEqual({ mails: followers.length, keys: followers.length });

      // More alerts for everyone mailed today wait for tomorrow; followers after them are mailed.
      await alertAgain(manager, followers, laterCoupon);
      const latecomers = await followersWaiting(manager, 2, couponId);
      expect(await alerts.mailDue(manager, tomorrowInIndia(18), merchantId)).toBe(latecomers.length);
      expect(await recorded()).toEqual({
        mails: followers.length + latecomers.length,
        keys: followers.length + latecomers.length,
      });
      const [{ waiting }] = await manager.query(
        'SELECT count(*)::int AS waiting FROM store_alerts WHERE merchant_id = $1 AND mailed_at IS NULL',
        [merchantId],
      );
      expect(waiting).toBe(followers.length);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
