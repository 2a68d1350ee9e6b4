import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { registerAndSignInMerchant, registerAndSignInUser } from '../support/accounts.js';
import { apiPath, type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import type { ReceivedMail } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';

/**
 * Every link a shopper gets by mail, and every link to the API in a mail, starts at PUBLIC_URL:
 * the address the site is served at (it forwards /api). The API's own address (API_URL) may be
 * one the shopper cannot reach, and no link names a localhost address.
 */
const SITE = 'https://deals.example.in';

let market: EngagementMarket;

beforeAll(async () => {
  market = await startEngagementMarket('mail links', {
    // Set with a trailing slash, as people do: links still have a single slash after the host.
    overrides: { PUBLIC_URL: `${SITE}/`, API_URL: 'http://api.internal.test' },
  });
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, payload?: unknown) =>
  market.api.http.inject({
    method,
    url,
    headers: { 'x-forwarded-for': `10.40.0.${Math.floor(Math.random() * 250) + 1}` },
    payload,
  });

const mailTo = (address: string, subject: RegExp = /./) =>
  eventually(
    async () => market.smtp.to(address).find((mail) => subject.test(mail.subject)),
    `a mail to ${address}`,
  );

/** Every address in the mail: its text, its HTML and its headers. */
function linksIn(mail: ReceivedMail): string[] {
  const everything = [mail.text, mail.html, ...mail.headers.values()].join('\n');
  return [...new Set(everything.match(/https?:\/\/[^\s"'<>]+/g) ?? [])];
}

function expectAllOnTheSite(mail: ReceivedMail): string[] {
  const links = linksIn(mail);
  expect(links.length).toBeGreaterThan(0);
  const onTheSite = new RegExp(`^${SITE.replaceAll('.', '\\.')}(?:/(?!/)|$)`);
  for (const link of links) expect(link).toMatch(onTheSite);
  return links;
}

describe('links in mails', () => {
  it("start at PUBLIC_URL in a shopper's welcome, with the referral link", async () => {
    const { registration } = await registerAndSignInUser(market.api.baseUrl);

    const links = expectAllOnTheSite(await mailTo(registration.email));

    expect(links).toContainEqual(
      expect.stringMatching(/^https:\/\/deals\.example\.in\/register\?ref=\w{8}$/),
    );
  });

  it("start at PUBLIC_URL in a shopper's password reset and its notice", async () => {
    const { registration } = await registerAndSignInUser(market.api.baseUrl);
    await mailTo(registration.email); // the welcome

    const forgot = await inject('POST', '/api/auth/password/forgot', {
      email: registration.email,
      role: 'user',
    });
    expect(forgot.statusCode).toBe(202);
    const reset = await mailTo(registration.email, /reset/i);
    const [link] = expectAllOnTheSite(reset).filter((found) => found.includes('/reset-password?token='));
    const token = new URL(link!).searchParams.get('token');
    const changed = await inject('POST', '/api/auth/password/reset', { token, password: 'Monsoon@2027' });
    expect(changed.statusCode).toBe(204);

    expectAllOnTheSite(await mailTo(registration.email, /changed/i));
  });

  it("start at PUBLIC_URL in a merchant's confirmation mail, and the link confirms through the API", async () => {
    const { registration, session } = await registerAndSignInMerchant(
      market.api.baseUrl,
      {},
      { confirmEmail: false },
    );

    const [link] = expectAllOnTheSite(await mailTo(registration.email));
    expect(link).toMatch(/^https:\/\/deals\.example\.in\/api\/auth\/confirm-email\?token=/);

    expect((await inject('GET', apiPath(link!))).statusCode).toBe(200);
    const [merchant] = await market.api.dataSource.query(
      'SELECT is_email_confirmed FROM merchants WHERE id = $1',
      [session.id],
    );
    expect(merchant.is_email_confirmed).toBe(true);
  });

  it('start at PUBLIC_URL in the newsletter confirmation and its List-Unsubscribe header', async () => {
    const email = `reader.${Date.now()}@example.in`;
    expect((await inject('POST', '/api/newsletter', { email })).statusCode).toBe(202);

    const mail = await mailTo(email);
    const links = expectAllOnTheSite(mail);

    expect(links).toContainEqual(
      expect.stringMatching(/^https:\/\/deals\.example\.in\/api\/newsletter\/confirm\?token=/),
    );
    expect(mail.headers.get('list-unsubscribe')).toMatch(
      /^<https:\/\/deals\.example\.in\/api\/newsletter\/unsubscribe\?token=[^>]+>$/,
    );
    const confirmed = await inject('GET', apiPath(links.find((found) => found.includes('/confirm?'))!));
    expect(confirmed.statusCode).toBe(200);
  });
});
