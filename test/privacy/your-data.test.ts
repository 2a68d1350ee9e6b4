import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PERSON_FORGETTERS } from '@offers/api/read-models';
import { GRIEVANCE_FORM, PERSON_DATA_SECTIONS } from '@offers/api/rules';
import sharp from 'sharp';
import { registerAndSignInMerchant, registerAndSignInUser, type Session } from '../support/accounts.js';
import { clickOutDaysAgo } from '../support/claims.js';
import { multipart } from '../support/coupons.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { untilEventsProcessed } from '../support/marketplace.js';
import { type CashbackShop, cashbackShopWithStore, confirmedCashback } from '../support/payouts.js';
import { eventually } from '../support/test-environment.js';

/**
 * "Your data": the summary of everything held of a person (each owner describing its part) and
 * the whole of it as a JSON download, the person's own data only and no secret, each download
 * logged; grievances with their 90-day deadline, acknowledgement and answer mailed; the admins'
 * grievance queue and data-request log.
 */
let market: EngagementMarket;
let shop: CashbackShop;

beforeAll(async () => {
  market = await startEngagementMarket('your data');
  shop = await cashbackShopWithStore(market, 'Neem soap 15% off', {
    name: 'Neem Naturals',
    address: 'Mysuru',
  });
}, 60_000);

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload: payload as string });

const expectStatus = async (answer: Promise<{ statusCode: number; body: string }>, status: number) => {
  const { statusCode, body } = await answer;
  if (statusCode !== status) throw new Error(`expected ${status}, got ${statusCode}: ${body}`);
};

let addresses = 0;
const nextAddress = () => {
  addresses += 1;
  return `10.88.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

interface Shopper {
  session: Session;
  name: string;
  email: string;
  mobile: string;
  address: string;
  upiId: string;
  orderId: string;
  clickId: string;
}

/** A shopper with unique values and follows, a vote, clicks, an earning, a payout and a claim. */
async function busyShopper(): Promise<Shopper> {
  const tag = randomBytes(4).toString('hex');
  const name = `Kavya Yd${tag}`;
  const address = `House ${tag}, Banyan Street, Mysuru`;
  const { registration, session } = await registerAndSignInUser(market.api.baseUrl, {
    userName: name,
    address,
  });
  const email = registration.email as string;
  const mobile = registration.mobileNumber as string;
  const upiId = `kavya${tag}@okhdfc`;
  const orderId = `NN-${tag}`;
  const bearer = { ...session.bearer, 'x-forwarded-for': nextAddress() };

  await expectStatus(inject('POST', '/api/me/follows', bearer, { merchantId: shop.merchant.id }), 201);
  await expectStatus(inject('POST', `/api/coupons/${shop.couponId}/votes`, bearer, { worked: true }), 202);
  const clickId = await clickOutDaysAgo(market, shop.couponId, bearer, 2);
  await confirmedCashback(market, shop, session, '400');
  await expectStatus(inject('POST', '/api/me/payouts', bearer, { amount: '300', upiId }), 201);
  const invoice = await sharp({ create: { width: 40, height: 20, channels: 3, background: 'white' } })
    .jpeg()
    .toBuffer();
  const form = multipart(
    { clickId, orderId, orderDate: new Date().toISOString().slice(0, 10), amount: '250' },
    { invoice: { name: 'invoice.jpg', type: 'image/jpeg', bytes: invoice } },
  );
  await expectStatus(
    market.api.http.inject({
      method: 'POST',
      url: '/api/me/missing-cashback-claims',
      headers: { ...bearer, ...form.headers },
      payload: form.payload,
    }),
    201,
  );
  await eventually(async () => market.smtp.to(email).length > 0, `a mail to ${email}`);
  return { session, name, email, mobile, address, upiId, orderId, clickId };
}

const uniqueValues = (shopper: Shopper) => [
  shopper.name,
  shopper.email,
  shopper.mobile,
  shopper.address,
  shopper.upiId,
  shopper.orderId,
  shopper.clickId,
];

// biome-ignore lint/suspicious/noExplicitAny: sections are read loosely, by name
const section = (answer: { sections: any[] }, name: string) =>
  answer.sections.find((s) => s.section === name);

describe('your data', () => {
  let shopper: Shopper;
  let other: Shopper;

  beforeAll(async () => {
    shopper = await busyShopper();
    other = await busyShopper();
    await untilEventsProcessed(market, 20_000);
  }, 120_000);

  it('summarises every section, with whom it was shared and where to correct it, for the shopper alone', async () => {
    const consent = await inject('PUT', '/api/me/consents/store_alerts', shopper.session.bearer, {
      given: true,
    });
    expect(consent.statusCode).toBe(200);
    const answer = await inject('GET', '/api/me/data', shopper.session.bearer);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    const summary = answer.json();
    expect(summary.person).toEqual({ kind: 'shopper', id: shopper.session.id });
    const shown = summary.sections.map((s: { section: string }) => s.section);
    for (const name of [
      'account',
      'sessions',
      'follows',
      'votes',
      'clicks',
      'earnings',
      'payouts',
      'claims',
      'mails',
    ])
      expect(shown).toContain(name);
    // In the order the web apps list them, each section once.
    expect(shown).toEqual(PERSON_DATA_SECTIONS.filter((name) => shown.includes(name)));

    const account = section(summary, 'account');
    expect(account).toEqual(
      expect.objectContaining({
        count: 1,
        correctAt: 'profile',
        sharedWith: [{ recipient: 'mailProvider', name: null, what: 'email' }],
      }),
    );
    const facts = Object.fromEntries(
      account.facts.map((f: { name: string; value: unknown }) => [f.name, f.value]),
    );
    expect(facts).toEqual(
      expect.objectContaining({
        name: shopper.name,
        email: shopper.email,
        mobile: shopper.mobile,
        address: shopper.address,
      }),
    );
    expect(section(summary, 'follows')).toEqual(
      expect.objectContaining({
        count: 1,
        facts: [{ name: 'stores', value: 'Neem Naturals', format: 'text' }],
      }),
    );
    expect(section(summary, 'votes').count).toBe(1);
    // The click went to the store's own link: the store received its click id.
    expect(section(summary, 'clicks')).toEqual(
      expect.objectContaining({
        count: 1,
        sharedWith: [{ recipient: 'store', name: 'Neem Naturals', what: 'clickIds' }],
      }),
    );
    expect(section(summary, 'earnings')).toEqual(
      expect.objectContaining({
        count: 1,
        facts: expect.arrayContaining([expect.objectContaining({ name: 'confirmed', format: 'money' })]),
      }),
    );
    expect(section(summary, 'payouts').count).toBe(1);
    // The claim filed, and the purchase reported without a click that an admin approved.
    expect(section(summary, 'claims')).toEqual(
      expect.objectContaining({
        count: 2,
        facts: expect.arrayContaining([{ name: 'open', value: 1, format: 'number' }]),
      }),
    );
    // The consent given above, dated; the purposes not given show nothing.
    const consents = section(summary, 'consents');
    expect(consents.count).toBeGreaterThanOrEqual(1);
    const given = consents.facts.filter((f: { value: unknown }) => f.value !== null);
    expect(given).toEqual([{ name: 'store_alerts', value: expect.any(String), format: 'date' }]);
    expect(section(summary, 'sessions').count).toBe(1);
    expect(section(summary, 'mails').count).toBeGreaterThan(0);
    // The summary carries no records, and nothing of the other shopper.
    expect(summary.sections.every((s: object) => !('records' in s))).toBe(true);
    for (const value of uniqueValues(other)) expect(answer.body).not.toContain(value);
  }, 30_000);

  it('downloads all of it as a private JSON file with no secret and nobody else’s data, and logs the download', async () => {
    const answer = await inject('GET', '/api/me/data-export', shopper.session.bearer);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-store');
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const exported = answer.json();
    for (const name of [
      'account',
      'follows',
      'votes',
      'clicks',
      'earnings',
      'payouts',
      'claims',
      'sessions',
    ]) {
      expect(section(exported, name).records.length).toBeGreaterThan(0);
    }
    for (const value of uniqueValues(shopper)) expect(answer.body).toContain(value);
    for (const value of uniqueValues(other)) expect(answer.body).not.toContain(value);
    expect(
      section(exported, 'claims').records.find(
        (claim: { orderId: string }) => claim.orderId === shopper.orderId,
      ),
    ).toEqual(
      expect.objectContaining({
        orderId: shopper.orderId,
        hasInvoice: true,
        state: 'open',
        amount: '250.00',
      }),
    );
    expect(section(exported, 'clicks').records[0]).toEqual(
      expect.objectContaining({
        clickId: shopper.clickId,
        clickIdSentTo: { recipient: 'store', name: 'Neem Naturals' },
      }),
    );

    // No secret: the password hash, the session's token digests, the XSRF token, the bearer token.
    const [{ password_hash: passwordHash }] = await market.api.dataSource.query(
      'SELECT password_hash FROM users WHERE id = $1',
      [shopper.session.id],
    );
    const sessions: Array<Record<string, string | null>> = await market.api.dataSource.query(
      `SELECT cookie_token_hash, bearer_token_hash, xsrf_token FROM sessions WHERE role = 'user' AND account_id = $1`,
      [shopper.session.id],
    );
    const secrets = [
      passwordHash,
      shopper.session.token,
      ...sessions.flatMap((row) => Object.values(row)),
    ].filter((value): value is string => typeof value === 'string' && value.length > 0);
    expect(secrets.length).toBeGreaterThan(2);
    for (const secret of secrets) expect(answer.body).not.toContain(secret);
    expect(answer.body).not.toMatch(/password|token/i);

    const logged = await market.api.dataSource.query(
      `SELECT kind, action, person_kind, person_id, acted_by, admin_id, detail FROM data_requests
       WHERE kind = 'export' AND person_id = $1`,
      [shopper.session.id],
    );
    expect(logged).toEqual([
      expect.objectContaining({
        kind: 'export',
        action: 'downloaded',
        person_kind: 'shopper',
        acted_by: 'person',
        admin_id: null,
        detail: { records: expect.objectContaining({ clicks: 1, claims: 2, earnings: 1 }) },
      }),
    ]);
    // The next summary shows the download among the person's data requests.
    const summary = (await inject('GET', '/api/me/data', shopper.session.bearer)).json();
    expect(section(summary, 'dataRequests').count).toBe(1);
  }, 30_000);

  it('counts downloads per account: past the limit, 429 with Retry-After and nothing logged', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    for (let download = 0; download < 5; download += 1) {
      const headers = { ...session.bearer, 'x-forwarded-for': nextAddress() };
      await expectStatus(inject('GET', '/api/me/data-export', headers), 200);
    }
    const refused = await inject('GET', '/api/me/data-export', {
      ...session.bearer,
      'x-forwarded-for': nextAddress(),
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    const [{ downloads }] = await market.api.dataSource.query(
      `SELECT count(*)::int AS downloads FROM data_requests WHERE kind = 'export' AND person_id = $1`,
      [session.id],
    );
    expect(downloads).toBe(5);
  }, 30_000);

  it('shows a correction made through the profile, for every field the profile changes', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    const changes = {
      userName: 'Kavya Corrected',
      mobileNumber: '9123456780',
      address: '9 New Colony, Vijayawada',
      language: 'te',
    };
    await expectStatus(inject('PUT', '/api/me/profile', session.bearer, changes), 200);
    const account = section((await inject('GET', '/api/me/data', session.bearer)).json(), 'account');
    expect(account.correctAt).toBe('profile');
    expect(
      Object.fromEntries(account.facts.map((f: { name: string; value: unknown }) => [f.name, f.value])),
    ).toEqual(
      expect.objectContaining({
        name: changes.userName,
        mobile: changes.mobileNumber,
        address: changes.address,
        language: 'te',
      }),
    );
  });

  it('answers 401 to a visitor and 403 to the other role', async () => {
    expect((await inject('GET', '/api/me/data')).statusCode).toBe(401);
    expect((await inject('GET', '/api/me/data-export')).statusCode).toBe(401);
    expect((await inject('GET', '/api/merchant/data-export', shopper.session.bearer)).statusCode).toBe(403);
  });

  it('summarises and exports a merchant’s account from the back-office', async () => {
    const tag = randomBytes(4).toString('hex');
    const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl, {
      address: `Unit ${tag}, Silk Road, Kanchipuram`,
    });
    const summary = await inject('GET', '/api/merchant/data', session.bearer);
    expect(summary.statusCode).toBe(200);
    const facts = Object.fromEntries(
      section(summary.json(), 'account').facts.map((f: { name: string; value: unknown }) => [
        f.name,
        f.value,
      ]),
    );
    expect(facts).toEqual(
      expect.objectContaining({ email: registration.email, address: `Unit ${tag}, Silk Road, Kanchipuram` }),
    );
    const exported = await inject('GET', '/api/merchant/data-export', session.bearer);
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(/^attachment;/);
    expect(exported.body).not.toMatch(/password|postback_?secret|token/i);
    const [row] = await market.api.dataSource.query(
      `SELECT person_kind, acted_by FROM data_requests WHERE kind = 'export' AND person_id = $1 AND person_kind = 'merchant'`,
      [session.id],
    );
    expect(row).toEqual({ person_kind: 'merchant', acted_by: 'person' });
  }, 30_000);
});

const DAY_MS = 24 * 60 * 60 * 1000;

function grievance(overrides: Record<string, unknown> = {}) {
  const tag = randomBytes(3).toString('hex');
  return {
    name: `Ravi Gr${tag}`,
    email: `ravi.${tag}@example.in`,
    category: 'correction',
    subject: `My address is wrong ${tag}`,
    message: 'I changed my address but the old one still shows.',
    ...overrides,
  };
}

describe('grievances', () => {
  it('records a grievance due in 90 days, mails its reference and due date, and logs it', async () => {
    const form = grievance();
    const filed = await inject('POST', '/api/grievances', { 'x-forwarded-for': nextAddress() }, form);
    expect(filed.statusCode).toBe(201);
    const { reference, dueAt, message } = filed.json();
    expect(reference).toMatch(/^GR-[A-Z2-9]{8}$/);
    expect(message).toBe(GRIEVANCE_FORM.filed);
    const [row] = await market.api.dataSource.query(
      `SELECT state, person_kind, filed_at, due_at, language FROM grievances WHERE reference = $1`,
      [reference],
    );
    expect(row).toEqual(expect.objectContaining({ state: 'open', person_kind: null, language: 'en' }));
    expect(new Date(row.due_at).getTime() - new Date(row.filed_at).getTime()).toBe(90 * DAY_MS);
    expect(new Date(dueAt).getTime()).toBe(new Date(row.due_at).getTime());

    const [mail] = await eventually(async () => {
      const mails = market.smtp.to(form.email);
      return mails.length > 0 && mails;
    }, 'the acknowledgement');
    expect(mail!.subject).toBe(`Your grievance ${reference} is recorded`);
    expect(mail!.text).toContain(reference);
    const dueDate = new Intl.DateTimeFormat('en-IN', { dateStyle: 'long', timeZone: 'Asia/Kolkata' }).format(
      new Date(row.due_at),
    );
    expect(mail!.text).toContain(dueDate);

    const logged = await market.api.dataSource.query(
      `SELECT action, person_kind, acted_by, reference FROM data_requests WHERE kind = 'grievance' AND reference = $1`,
      [reference],
    );
    expect(logged).toEqual([{ action: 'filed', person_kind: null, acted_by: 'person', reference }]);
  }, 30_000);

  it('notes the account of a signed-in person and mails in the form’s language', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    const form = grievance({ language: 'hi', category: 'access' });
    const filed = await inject(
      'POST',
      '/api/grievances',
      { ...session.bearer, 'x-forwarded-for': nextAddress() },
      form,
    );
    expect(filed.statusCode).toBe(201);
    const [row] = await market.api.dataSource.query(
      'SELECT person_kind, person_id FROM grievances WHERE reference = $1',
      [filed.json().reference],
    );
    expect(row).toEqual({ person_kind: 'shopper', person_id: session.id });
    const [mail] = await eventually(async () => {
      const mails = market.smtp.to(form.email);
      return mails.length > 0 && mails;
    }, 'the acknowledgement in Hindi');
    expect(mail!.subject).toBe(`आपकी शिकायत ${filed.json().reference} दर्ज हो गई है`);
  }, 30_000);

  it('refuses an incomplete or malformed form with each field’s message, storing nothing', async () => {
    const [{ before }] = await market.api.dataSource.query('SELECT count(*)::int AS before FROM grievances');
    const refused = await inject(
      'POST',
      '/api/grievances',
      { 'x-forwarded-for': nextAddress() },
      { name: ' ', email: 'not-an-address', category: 'spam', subject: '', message: 'x'.repeat(5001) },
    );
    expect(refused.statusCode).toBe(400);
    const { errors } = refused.json();
    expect(errors.name).toEqual([GRIEVANCE_FORM.name.required]);
    expect(errors.email).toEqual([GRIEVANCE_FORM.email.invalid]);
    expect(errors.category).toEqual([GRIEVANCE_FORM.category.invalid]);
    expect(errors.subject).toEqual([GRIEVANCE_FORM.subject.required]);
    expect(errors.message).toHaveLength(1);
    const unknown = await inject(
      'POST',
      '/api/grievances',
      { 'x-forwarded-for': nextAddress() },
      {
        ...grievance(),
        state: 'answered',
      },
    );
    expect(unknown.statusCode).toBe(400);
    const [{ after }] = await market.api.dataSource.query('SELECT count(*)::int AS after FROM grievances');
    expect(after).toBe(before);
  });

  it('takes a few grievances per address, then asks it to wait', async () => {
    const address = nextAddress();
    for (let filed = 0; filed < GRIEVANCE_FORM.perWindow; filed += 1)
      await expectStatus(inject('POST', '/api/grievances', { 'x-forwarded-for': address }, grievance()), 201);
    const refused = await inject('POST', '/api/grievances', { 'x-forwarded-for': address }, grievance());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(GRIEVANCE_FORM.tooMany);
  }, 30_000);

  it('lists the admins’ queue by due date, answers once, mails the answer and logs the admin', async () => {
    const form = grievance({ language: 'te' });
    const filed = await inject('POST', '/api/grievances', { 'x-forwarded-for': nextAddress() }, form);
    const { reference } = filed.json();
    // Another one filed long ago comes first: it is due sooner, and overdue.
    const older = grievance();
    const { reference: olderReference } = (
      await inject('POST', '/api/grievances', { 'x-forwarded-for': nextAddress() }, older)
    ).json();
    await market.api.dataSource.query(
      `UPDATE grievances SET filed_at = now() - interval '100 days', due_at = now() - interval '10 days'
       WHERE reference = $1`,
      [olderReference],
    );

    const list = await inject('GET', '/api/admin/grievances?filter={"state":"open"}', market.admin);
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-range']).toMatch(/^grievances 0-\d+\/\d+$/);
    const rows = list.json();
    expect(rows[0]).toEqual(expect.objectContaining({ reference: olderReference, daysLeft: -10 }));
    const mine = rows.find((row: { reference: string }) => row.reference === reference);
    expect(mine).toEqual(expect.objectContaining({ state: 'open', daysLeft: 90, email: form.email }));
    const dueAts = rows.map((row: { dueAt: string }) => row.dueAt);
    expect(dueAts).toEqual([...dueAts].sort());

    const answer = 'We corrected your address on 1 December. Thank you for telling us.';
    const answered = await inject('POST', `/api/admin/grievances/${mine.id}/answer`, market.admin, {
      answer,
    });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toEqual(
      expect.objectContaining({
        state: 'answered',
        answer,
        answeredBy: 'admin',
        answeredAt: expect.any(String),
      }),
    );
    const again = await inject('POST', `/api/admin/grievances/${mine.id}/answer`, market.admin, {
      answer: 'Twice',
    });
    expect(again.statusCode).toBe(409);
    expect(
      (await inject('POST', `/api/admin/grievances/${mine.id}/answer`, market.admin, {})).statusCode,
    ).toBe(400);
    expect(
      (await inject('POST', '/api/admin/grievances/999999/answer', market.admin, { answer })).statusCode,
    ).toBe(404);

    const mail = await eventually(async () => {
      return market.smtp.to(form.email).find((received) => received.text.includes(answer));
    }, 'the answer');
    expect(mail!.subject).toBe(`మీ ఫిర్యాదు ${reference}కు మా సమాధానం`);

    const [adminRow] = await market.api.dataSource.query("SELECT id FROM admins WHERE username = 'admin'");
    const logged = await market.api.dataSource.query(
      `SELECT action, acted_by, admin_id FROM data_requests WHERE kind = 'grievance' AND reference = $1 ORDER BY id`,
      [reference],
    );
    expect(logged).toEqual([
      { action: 'filed', acted_by: 'person', admin_id: null },
      { action: 'answered', acted_by: 'admin', admin_id: adminRow.id },
    ]);
  }, 30_000);

  it('keeps an erased person’s grievance as a record of the duty, without who filed it or their words', async () => {
    const { session, registration } = await registerAndSignInUser(market.api.baseUrl);
    const form = grievance({ email: registration.email });
    const filed = await inject(
      'POST',
      '/api/grievances',
      { ...session.bearer, 'x-forwarded-for': nextAddress() },
      form,
    );
    const { reference } = filed.json();
    const forgetter = PERSON_FORGETTERS.find((entry) => entry.owner === 'privacy')!;
    const outcome = await market.api.dataSource.transaction((manager) =>
      forgetter.forget(manager, {
        kind: 'shopper',
        id: session.id,
        email: registration.email as string,
        pseudonym: `forgotten-${randomUUID()}`,
      }),
    );
    expect(outcome).toEqual({ removed: { consents: 3 }, anonymised: { grievances: 1 } });
    const [row] = await market.api.dataSource.query(
      'SELECT name, email, subject, message, category, state, due_at FROM grievances WHERE reference = $1',
      [reference],
    );
    expect(row).toEqual(
      expect.objectContaining({ subject: '', message: '', category: 'correction', state: 'open' }),
    );
    expect(JSON.stringify(row)).not.toContain(form.name);
    expect(JSON.stringify(row)).not.toContain(registration.email);
  }, 30_000);
});

describe('the admins’ data-request log', () => {
  it('lists the log newest first, by kind, naming the acting admin', async () => {
    const all = await inject('GET', '/api/admin/data-requests', market.admin);
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-range']).toMatch(/^data-requests 0-\d+\/\d+$/);
    const times = all.json().map((row: { actedAt: string }) => row.actedAt);
    expect(times).toEqual([...times].sort().reverse());

    const grievances = await inject(
      'GET',
      `/api/admin/data-requests?filter=${encodeURIComponent('{"kind":"grievance"}')}&range=[0,199]`,
      market.admin,
    );
    const rows = grievances.json();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row: { kind: string }) => row.kind === 'grievance')).toBe(true);
    expect(rows.find((row: { action: string }) => row.action === 'answered')).toEqual(
      expect.objectContaining({ actedBy: 'admin', adminName: 'admin' }),
    );
    expect(
      (await inject('GET', '/api/admin/data-requests?filter={"kind":"gossip"}', market.admin)).statusCode,
    ).toBe(400);
  });

  it('is for admins only', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    expect((await inject('GET', '/api/admin/data-requests')).statusCode).toBe(401);
    expect((await inject('GET', '/api/admin/data-requests', session.bearer)).statusCode).toBe(403);
    expect((await inject('GET', '/api/admin/grievances', session.bearer)).statusCode).toBe(403);
    expect((await inject('POST', '/api/admin/grievances/1/answer', {}, { answer: 'x' })).statusCode).toBe(
      401,
    );
  });
});
