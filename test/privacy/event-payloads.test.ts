import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  confirmMerchantEmail,
  registerAndSignInMerchant,
  registerAndSignInUser,
} from '../support/accounts.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { approve, submitCoupon, untilEventsProcessed } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';

/**
 * Events carry ids, not a person's fields: a shopper and a merchant with values found nowhere
 * else do what records events (register, change their profile, ask for a reset link, subscribe,
 * write to the staff, confirm an address, reveal, vote, click out, follow), and none of their
 * values is in any event payload. The mails still greet them by name: the consumer reads the
 * account by id when it handles the event.
 */
let market: EngagementMarket;

beforeAll(async () => {
  market = await startEngagementMarket('event payloads');
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

const unique = () => randomBytes(4).toString('hex');
const digits = () => String(Math.floor(Math.random() * 1e8)).padStart(8, '0');

describe('event payloads', () => {
  it('hold none of the personal values of the people whose actions recorded them', async () => {
    const mark = unique();
    const shopper = {
      userName: `Quillon ${mark}`,
      email: `quillon.${mark}@example.in`,
      mobileNumber: `97${digits()}`,
      address: `${mark} Juniper Lane, Nashik`,
    };
    const renamed = { userName: `Quillon Renamed ${mark}`, address: `${mark} Tamarind Road, Pune` };
    const merchantValues = {
      merchantName: `Vellira ${mark}`,
      email: `vellira.${mark}@example.in`,
      mobile: `96${digits()}`,
      address: `${mark} Banyan Street, Kochi`,
      userName: `vellira${mark}`,
    };
    const contact = { name: `Orlanna ${mark}`, email: `orlanna.${mark}@example.in`, mobile: `95${digits()}` };
    const message = `Please call me about order ${mark}-XQ`;
    const subscriber = `newsletter.${mark}@example.in`;
    const clientAddress = `198.51.${Number.parseInt(mark.slice(0, 2), 16)}.${Number.parseInt(mark.slice(2, 4), 16)}`;
    const from = { 'x-forwarded-for': clientAddress };

    const { session: user } = await registerAndSignInUser(market.api.baseUrl, shopper);
    const { session: merchant } = await registerAndSignInMerchant(market.api.baseUrl, merchantValues, {
      confirmEmail: false,
    });
    await confirmMerchantEmail(market.api.baseUrl, merchant.id, merchantValues.email);
    expect((await inject('PUT', '/api/me/profile', user.bearer, renamed)).statusCode).toBe(200);
    expect(
      (
        await inject('PUT', '/api/merchant/profile', merchant.bearer, {
          address: `${mark} Peepal Road, Kochi`,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await inject('POST', '/api/auth/password/forgot', from, { email: shopper.email, role: 'user' }))
        .statusCode,
    ).toBe(202);
    expect((await inject('POST', '/api/newsletter', from, { email: subscriber })).statusCode).toBeLessThan(
      300,
    );
    expect(
      (await inject('POST', '/api/contact', from, { ...contact, msg: message })).statusCode,
    ).toBeLessThan(300);

    const couponId = await submitCoupon(market, merchant);
    expect((await approve(market, couponId)).statusCode).toBe(200);
    expect((await inject('POST', `/api/coupons/${couponId}/reveal`, from)).statusCode).toBe(200);
    expect(
      (await inject('POST', `/api/coupons/${couponId}/votes`, { ...user.bearer, ...from }, { worked: true }))
        .statusCode,
    ).toBeLessThan(300);
    expect((await inject('GET', `/api/out/${couponId}`, { ...user.bearer, ...from })).statusCode).toBe(302);
    expect((await inject('GET', `/api/out/${couponId}`, from)).statusCode).toBe(302);
    expect(
      (await inject('POST', '/api/me/follows', user.bearer, { merchantId: merchant.id })).statusCode,
    ).toBeLessThan(300);
    await untilEventsProcessed(market);

    const values = [
      ...Object.values(shopper),
      ...Object.values(renamed),
      ...Object.values(merchantValues),
      ...Object.values(contact),
      message,
      subscriber,
      clientAddress,
      mark,
    ];
    const found = await market.api.dataSource.query(
      `SELECT type, v AS value FROM outbox, unnest($1::text[]) v
       WHERE strpos(lower(payload::text), lower(v)) > 0 ORDER BY position`,
      [values],
    );
    expect(found).toEqual([]);
    // Every kind of event these made is in the log (the scan read them).
    const types = await market.api.dataSource.query(
      `SELECT DISTINCT type FROM outbox
       WHERE aggregate_id IN ($1, $2, $3) OR (type = 'ClickedOut' AND payload->>'couponId' = $3)`,
      [String(user.id), String(merchant.id), String(couponId)],
    );
    expect(types.map((row: { type: string }) => row.type)).toEqual(
      expect.arrayContaining([
        'UserRegistered',
        'MerchantRegistered',
        'MerchantEmailConfirmed',
        'PasswordResetRequested',
        'CouponRevealed',
        'CouponVoted',
        'ClickedOut',
        'StoreFollowed',
      ]),
    );

    // The welcome mails still greet each by name, read from the account when the mail was made.
    const welcome = await eventually(async () => market.smtp.to(shopper.email)[0], 'the welcome mail');
    expect(welcome.subject).toContain(shopper.userName);
    const merchantWelcome = await eventually(
      async () => market.smtp.to(merchantValues.email)[0],
      'a merchant mail',
    );
    expect(merchantWelcome.text).toContain(merchantValues.merchantName);
  });
});
