import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EarningUpdates } from '@offers/workers/mail';
import { registerAndSignInMerchant, registerAndSignInUser } from '../support/accounts.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { untilEventsProcessed } from '../support/marketplace.js';
import { type CashbackShop, cashbackShop, confirmedCashback } from '../support/payouts.js';
import type { ReceivedMail } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';

/**
 * The mails about money, delivered over real SMTP in each recipient's language: cashback
 * confirmed, payout paid, payout failed, and the referral bonus (to a referring shopper or merchant).
 */
let market: EngagementMarket;
let shop: CashbackShop;

beforeAll(async () => {
  market = await startEngagementMarket('money mails');
  shop = await cashbackShop(market, { title: 'Kesar glow serum 30% off' });
  await market.api.dataSource.query(
    "INSERT INTO merchant_stores (merchant_id, store_name, store_address) VALUES ($1, 'Kesar Beauty', 'Jaipur')",
    [shop.merchant.id],
  );
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

/** The mail to the address whose subject matches, once it arrived. */
const mailTo = (address: string, subject: RegExp) =>
  eventually(
    async () => market.smtp.to(address).find((mail) => subject.test(mail.subject)),
    `a mail "${subject}" to ${address}`,
  ) as Promise<ReceivedMail>;

describe('mails about money', () => {
  it('cashback confirmed: to the shopper in Hindi, with the amount in rupees and the store', async () => {
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl, { language: 'hi' });
    await confirmedCashback(market, shop, session, '1234.50');
    // Mailed by the day's digest, once the wait after the confirmation has passed.
    await untilEventsProcessed(market);
    const later = new Date(Date.now() + 24 * 3600_000);
    await market.api.dataSource.transaction((manager) =>
      market.workers.module.get(EarningUpdates).mailDue(manager, later),
    );

    const mail = await mailTo(registration.email, /कैशबैक/);
    expect(mail.subject).toBe('आपका ₹1,234.50 का कैशबैक कन्फ़र्म हो गया');
    expect(mail.html).toContain('<html lang="hi">');
    expect(mail.text).toContain(
      'Kesar Beauty ने आपकी ख़रीदारी कन्फ़र्म कर दी है: आपका ₹1,234.50 का कैशबैक अब आपके उपलब्ध बैलेंस में है।',
    );
    expect(mail.text).toContain('मेरी कमाई देखें: http://shop.offers.test/hi/account/earnings');
  });

  it('payout paid: in Telugu, with the amount and the bank reference, never the full account number', async () => {
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl, { language: 'te' });
    await confirmedCashback(market, shop, session, '15000');
    const requested = await inject('POST', '/api/me/payouts', session.bearer, {
      amount: '12345.50',
      accountNumber: '50100234567891',
      ifsc: 'HDFC0001234',
    });
    expect(requested.statusCode).toBe(201);
    const id = requested.json().id;
    await inject('POST', `/api/admin/payouts/${id}/process`, market.admin);
    const paid = await inject('POST', `/api/admin/payouts/${id}/pay`, market.admin, {
      bankReference: 'HDFCN52026112512345',
    });
    expect(paid.statusCode).toBe(200);

    const mail = await mailTo(registration.email, /చెల్లింపు/);
    expect(mail.subject).toBe('మీ ₹12,345.50 చెల్లింపు పంపబడింది');
    expect(mail.html).toContain('<html lang="te">');
    expect(mail.text).toContain('మేము ₹12,345.50ను XXXX7891 · HDFC0001234కు పంపాము.');
    expect(mail.text).toContain('బ్యాంక్ రిఫరెన్స్: HDFCN52026112512345.');
    expect(`${mail.text}${mail.html}`).not.toContain('50100234567891');
    expect(mail.text).toContain('http://shop.offers.test/te/account/earnings');
  });

  it('payout failed: in English, with the reason and the amount back in the balance', async () => {
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl);
    await confirmedCashback(market, shop, session, '400');
    const id = (
      await inject('POST', '/api/me/payouts', session.bearer, { amount: '300', upiId: 'asha@okaxis' })
    ).json().id;
    const failed = await inject('POST', `/api/admin/payouts/${id}/fail`, market.admin, {
      reason: 'The bank says this UPI ID does not exist.',
    });
    expect(failed.statusCode).toBe(200);

    const mail = await mailTo(registration.email, /payout/);
    expect(mail.subject).toBe('Your payout of ₹300.00 could not be paid');
    expect(mail.text).toContain('> The bank says this UPI ID does not exist.');
    expect(mail.html).toContain('The bank says this UPI ID does not exist.');
    expect(mail.text).toContain('The ₹300.00 is back in your available balance.');
    expect(mail.text).toContain('See my earnings: http://shop.offers.test/account/earnings');
    // Requesting and processing send nothing: only the outcome is news.
    expect(market.smtp.to(registration.email).filter((one) => /payout/i.test(one.subject))).toHaveLength(1);
  });

  it('referral bonus: to a referring shopper in Telugu and a referring merchant in Hindi', async () => {
    const { registration: shopperReferrer, session: referringShopper } = await registerAndSignInUser(
      market.api.baseUrl,
      { language: 'te' },
    );
    const { registration: merchantReferrer, session: referringMerchant } = await registerAndSignInMerchant(
      market.api.baseUrl,
      { language: 'hi' },
    );
    const codeOf = async (url: string, headers: Record<string, string>) =>
      (await inject('GET', url, headers)).json().code as string;
    const friends = [
      await registerAndSignInUser(market.api.baseUrl, {
        referredBy: await codeOf('/api/me/referral', referringShopper.bearer),
      }),
      await registerAndSignInUser(market.api.baseUrl, {
        referredBy: await codeOf('/api/merchant/referral', referringMerchant.bearer),
      }),
    ];
    for (const friend of friends) await confirmedCashback(market, shop, friend.session, '650');

    const toShopper = await mailTo(shopperReferrer.email, /రెఫరల్ బోనస్/);
    expect(toShopper.subject).toBe('మీకు ₹100.00 రెఫరల్ బోనస్ వచ్చింది');
    expect(toShopper.text).toContain('నా సంపాదన చూడండి: http://shop.offers.test/te/account/earnings');

    const toMerchant = await mailTo(merchantReferrer.email, /रेफ़रल बोनस/);
    expect(toMerchant.subject).toBe('आपको ₹100.00 का रेफ़रल बोनस मिला');
    expect(toMerchant.html).toContain('<html lang="hi">');
    expect(toMerchant.text).toContain('मेरा रेफ़रल पेज खोलें: http://office.offers.test/#/referral');
  });
});
