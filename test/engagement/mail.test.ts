import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { insertStoreWithoutAccount } from '@offers/api/identity/queries/stores-without-account';
import type { PublishedEvent } from '@offers/api/infrastructure/events/domain-event';
import { DomainEvent } from '@offers/api/infrastructure/events/domain-event';
import { UnitOfWork } from '@offers/api/infrastructure/events/unit-of-work';
import { EventDispatcher } from '../../workers/src/events/event-dispatcher.js';
import { registerAndSignInMerchant, registerAndSignInUser } from '../support/accounts.js';
import { apiPath, type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { approve, submitCoupon } from '../support/marketplace.js';
import { linkIn } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';

let market: EngagementMarket;

beforeAll(async () => {
  market = await startEngagementMarket('engagement mail');
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

const mailsTo = (address: string, count = 1) =>
  eventually(async () => {
    const mails = market.smtp.to(address);
    return mails.length >= count && mails;
  }, `${count} mail(s) to ${address}`);

/** A product review event as the catalog records it (aggregate 'Product'). */
class ProductReviewed extends DomainEvent<Record<string, unknown>> {
  readonly aggregateType = 'Product';
  constructor(
    readonly type: string,
    productId: string,
    payload: Record<string, unknown>,
  ) {
    super(productId, payload);
  }
}

async function publishedEvent(type: string, aggregateId: string): Promise<PublishedEvent> {
  const [row] = await market.api.dataSource.query(
    `SELECT id, position::text, type, aggregate_type AS "aggregateType", aggregate_id AS "aggregateId", payload,
            occurred_at AS "occurredAt" FROM outbox WHERE type = $1 AND aggregate_id = $2`,
    [type, aggregateId],
  );
  return { ...row, occurredAt: new Date(row.occurredAt).toISOString() };
}

describe('transactional mails', () => {
  it('welcomes a user in Hindi, with the referral link, once', async () => {
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl, { language: 'hi' });
    const [mail] = await mailsTo(registration.email);

    expect(mail!.subject).toBe('ऑफ़र्स मार्केटप्लेस में आपका स्वागत है, Asha Rao');
    expect(mail!.html).toContain('<html lang="hi">');
    expect(mail!.text).toContain('ऑफ़र्स मार्केटप्लेस से जुड़ने के लिए धन्यवाद');
    const [{ code }] = await market.api.dataSource.query(
      'SELECT referral_code AS code FROM users WHERE id = $1',
      [session.id],
    );
    expect(linkIn(mail!, 'http://shop.offers.test/register')).toBe(
      `http://shop.offers.test/register?ref=${code}`,
    );
  });

  it('welcomes a merchant in Telugu with a confirmation link that confirms the address', async () => {
    const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl, { language: 'te' });
    const [mail] = await mailsTo(registration.email);

    expect(mail!.subject).toBe('ఆఫర్స్ మార్కెట్‌ప్లేస్ కోసం మీ ఈమెయిల్ చిరునామాను నిర్ధారించండి');
    expect(mail!.html).toContain('<html lang="te">');
    const link = linkIn(mail!, 'http://shop.offers.test/api/auth/confirm-email?token=');
    // The token is made by the mailer: the event log holds no token.
    const [event] = await market.api.dataSource.query(
      "SELECT payload::text AS payload FROM outbox WHERE type = 'MerchantRegistered' AND aggregate_id = $1",
      [String(session.id)],
    );
    expect(event.payload).not.toContain(new URL(link).searchParams.get('token'));

    const confirmed = await inject('GET', apiPath(link));
    expect(confirmed.statusCode).toBe(200);
    const [merchant] = await market.api.dataSource.query(
      'SELECT is_email_confirmed FROM merchants WHERE id = $1',
      [session.id],
    );
    expect(merchant.is_email_confirmed).toBe(true);
  });

  it('tells the merchant about approved and rejected coupons, with the reason', async () => {
    const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl);
    await mailsTo(registration.email); // the welcome
    const approvedId = await submitCoupon(market, session, { title: 'Monsoon serum deal' });
    const rejectedId = await submitCoupon(market, session, { title: 'Blurry deal' });
    expect((await approve(market, approvedId)).statusCode).toBe(200);
    const rejected = await inject('POST', `/api/admin/coupons/${rejectedId}/reject`, market.admin, {
      reason: 'The image is not clear.',
    });
    expect(rejected.statusCode).toBe(200);

    const mails = await mailsTo(registration.email, 3);
    const live = mails.find((mail) => mail.subject === 'Your coupon “Monsoon serum deal” is live');
    const refused = mails.find((mail) => mail.subject === 'Your coupon “Blurry deal” was not approved');
    expect(live?.text).toContain(`http://office.offers.test/coupons/${approvedId}`);
    expect(refused?.text).toContain('> The image is not clear.');
    expect(refused?.html).toContain('The image is not clear.');
  });

  it('writes in the language the merchant chose in the profile', async () => {
    const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl);
    await mailsTo(registration.email);
    const profile = await inject('PUT', '/api/merchant/profile', session.bearer, { language: 'te' });
    expect(profile.json()).toMatchObject({ language: 'te' });
    expect(
      (await inject('PUT', '/api/merchant/profile', session.bearer, { language: 'fr' })).statusCode,
    ).toBe(400);
    const couponId = await submitCoupon(market, session, { title: 'Festive deal' });
    await inject('POST', `/api/admin/coupons/${couponId}/reject`, market.admin, { reason: 'Terms missing.' });

    const [, rejected] = await mailsTo(registration.email, 2);
    expect(rejected!.subject).toBe('మీ కూపన్ “Festive deal” ఆమోదించబడలేదు');
    expect(rejected!.text).toContain('> Terms missing.');
  });

  it('tells the merchant about approved and rejected products, with reason and advised changes', async () => {
    const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl, { language: 'hi' });
    await mailsTo(registration.email);
    await market.api.app.get(UnitOfWork).run(async ({ record }) => {
      record(
        new ProductReviewed('ProductApproved', '501', {
          merchantId: session.id,
          productName: 'Rose face wash',
        }),
      );
      record(
        new ProductReviewed('ProductRejected', '502', {
          merchantId: session.id,
          productName: 'Night cream',
          reason: 'Price missing',
          advisedChanges: 'Add the price in rupees',
        }),
      );
    });

    const mails = await mailsTo(registration.email, 3);
    const approved = mails.find((mail) => mail.subject === 'आपका उत्पाद “Rose face wash” आपके स्टोर पेज पर है');
    const rejected = mails.find((mail) => mail.subject === 'आपके उत्पाद “Night cream” में बदलाव ज़रूरी हैं');
    expect(approved?.text).toContain(`http://shop.offers.test/merchantUrl/${session.id}`);
    expect(rejected?.text).toContain('> Price missing');
    expect(rejected?.text).toContain('> Add the price in rupees');
  });

  it('mails nobody about the coupons of a store without an account, and fails on none', async () => {
    const merchantId = await market.api.app.get(UnitOfWork).run(async ({ manager, record }) => {
      const store = await insertStoreWithoutAccount(manager, {
        name: 'Feed Store',
        siteUrl: 'https://feed.example.in',
      });
      record(
        new ProductReviewed('CouponApproved', '901', { merchantId: store.merchantId, title: 'Flat 10% off' }),
      );
      return store.merchantId;
    });
    const event = await publishedEvent('CouponApproved', '901');
    expect(event.payload.merchantId).toBe(merchantId);
    // Delivered as the relay would: no mail, and no error to retry forever.
    await market.api.dataSource.query("DELETE FROM inbox WHERE consumer = 'mail' AND event_id = $1", [
      event.id,
    ]);
    await expect(market.workers.module.get(EventDispatcher).dispatch(event)).resolves.not.toThrow();
    const [{ n }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM outbox WHERE id = $1 AND failed_at IS NOT NULL',
      [event.id],
    );
    expect(n).toBe(0);
  });

  it('sends nothing more when an event is delivered again, even past the inbox', async () => {
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl);
    await mailsTo(registration.email);
    const event = await publishedEvent('UserRegistered', String(session.id));
    const dispatcher = market.workers.module.get(EventDispatcher);

    await dispatcher.dispatch(event); // the inbox knows it
    // As if the inbox row were lost: the outgoing mail's idempotency key still holds.
    await market.api.dataSource.query("DELETE FROM inbox WHERE consumer = 'mail' AND event_id = $1", [
      event.id,
    ]);
    await dispatcher.dispatch(event);

    // A later mail arrives after anything the redelivery could have sent.
    const later = await registerAndSignInUser(market.api.baseUrl);
    await mailsTo(later.registration.email);
    await eventually(
      async () =>
        (await market.api.dataSource.query("SELECT 1 FROM outgoing_mails WHERE status = 'pending'"))
          .length === 0,
      'every recorded mail sent',
    );
    expect(market.smtp.to(registration.email)).toHaveLength(1);
    const rows = await market.api.dataSource.query('SELECT status FROM outgoing_mails WHERE recipient = $1', [
      registration.email,
    ]);
    expect(rows).toEqual([{ status: 'sent' }]);
  });
});
