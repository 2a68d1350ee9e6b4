import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { passwordResetToken } from '@offers/api/read-models';
import { PASSWORD_CHANGE, PASSWORD_RESET } from '@offers/api/rules';
import { EventDispatcher } from '@offers/workers/events';
import {
  BEARER_SIGN_IN,
  MERCHANT_PASSWORD,
  registerAndSignInMerchant,
  registerAndSignInUser,
  USER_PASSWORD,
} from '../support/accounts.js';
import type { HttpResponse } from '../support/api-app.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { linkIn } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';

/** Changing, forgetting and resetting a password; listing and ending sessions. Real SMTP, real mail. */
let market: EngagementMarket;

beforeAll(async () => {
  market = await startEngagementMarket('passwords');
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

const userSignIn = (email: string, userName: string, password: string) =>
  inject('POST', '/api/auth/users/login', BEARER_SIGN_IN, { email, userName, password });

const bearer = (response: HttpResponse) => ({ authorization: `Bearer ${response.json().token}` });

const NEW_PASSWORD = 'Fresh@2027y';

describe('changing the password', () => {
  it('needs the current password and the password rules, then ends the other sessions only', async () => {
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl);
    const phone = bearer(await userSignIn(registration.email, registration.userName, USER_PASSWORD));

    const wrongCurrent = await inject('PUT', '/api/me/password', session.bearer, {
      currentPassword: 'Guess@2026',
      newPassword: NEW_PASSWORD,
    });
    const weak = await inject('PUT', '/api/me/password', session.bearer, {
      currentPassword: USER_PASSWORD,
      newPassword: 'weakpassword',
    });
    const changed = await inject('PUT', '/api/me/password', session.browser, {
      currentPassword: USER_PASSWORD,
      newPassword: NEW_PASSWORD,
    });

    expect(wrongCurrent.statusCode).toBe(400);
    expect(wrongCurrent.json().errors).toEqual({ currentPassword: [PASSWORD_CHANGE.currentPassword.wrong] });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json().errors)).toEqual(['newPassword']);
    expect(changed.statusCode).toBe(204);
    // The session that changed it stays; the phone's ends.
    expect((await inject('GET', '/api/auth/me', session.browser)).statusCode).toBe(200);
    expect((await inject('GET', '/api/auth/me', phone)).statusCode).toBe(401);
    expect((await userSignIn(registration.email, registration.userName, USER_PASSWORD)).statusCode).toBe(401);
    expect((await userSignIn(registration.email, registration.userName, NEW_PASSWORD)).statusCode).toBe(200);
    // The owner hears of it, with a way back in if it was not them.
    const notice = await eventually(
      async () => market.smtp.to(registration.email).find((m) => m.subject.includes('was changed')),
      'the change notice',
    );
    expect(notice.text).toContain('http://shop.offers.test/forgot-password');
  });

  it('works for merchants under /api/merchant/password', async () => {
    const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl);

    const changed = await inject('PUT', '/api/merchant/password', session.bearer, {
      currentPassword: MERCHANT_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    const signIn = await inject(
      'POST',
      '/api/auth/merchants/login',
      {},
      {
        userName: registration.userName,
        password: NEW_PASSWORD,
      },
    );

    expect(changed.statusCode).toBe(204);
    expect(signIn.statusCode).toBe(200);
  });
});

describe('forgetting and resetting the password', () => {
  const forgot = (email: string, role: string) =>
    inject('POST', '/api/auth/password/forgot', {}, { email, role });

  it('answers the same whether or not the account exists, and mails a single-use link in the account language', async () => {
    const { registration, session } = await registerAndSignInUser(market.api.baseUrl, { language: 'hi' });
    const other = bearer(await userSignIn(registration.email, registration.userName, USER_PASSWORD));

    const known = await forgot(registration.email.toUpperCase(), 'user');
    const unknown = await forgot('nobody.here@example.in', 'user');
    const wrongRole = await forgot(registration.email, 'merchant');

    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(wrongRole.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ message: PASSWORD_RESET.accepted });

    const [mail] = await eventually(async () => {
      const resets = market.smtp.to(registration.email).filter((m) => m.subject.includes('पासवर्ड'));
      return resets.length > 0 && resets;
    }, 'the reset mail');
    expect(mail!.subject).toBe('अपना ऑफ़र्स मार्केटप्लेस पासवर्ड रीसेट करें');
    expect(mail!.text).toContain(`${PASSWORD_RESET.validForMinutes} मिनट`);
    const link = linkIn(mail!, 'http://shop.offers.test/reset-password?token=');
    const token = new URL(link).searchParams.get('token')!;
    // The link is signed by the mailer: no token is in the event log.
    const [{ logged }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS logged FROM outbox WHERE payload::text LIKE $1',
      [`%${token.slice(-20)}%`],
    );
    expect(logged).toBe(0);

    const weak = await inject('POST', '/api/auth/password/reset', {}, { token, password: 'short' });
    const reset = await inject('POST', '/api/auth/password/reset', {}, { token, password: NEW_PASSWORD });
    const again = await inject('POST', '/api/auth/password/reset', {}, { token, password: 'Other@2028z' });

    expect(weak.statusCode).toBe(400);
    expect(reset.statusCode).toBe(204);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ statusCode: 400, message: PASSWORD_RESET.invalid });
    // Every session of the account ended.
    expect((await inject('GET', '/api/auth/me', session.bearer)).statusCode).toBe(401);
    expect((await inject('GET', '/api/auth/me', other)).statusCode).toBe(401);
    expect((await userSignIn(registration.email, registration.userName, NEW_PASSWORD)).statusCode).toBe(200);
    // Only the known account got a mail.
    expect(market.smtp.to('nobody.here@example.in')).toEqual([]);
  });

  it('records one reset mail per request, however often its event is delivered', async () => {
    const { registration } = await registerAndSignInUser(market.api.baseUrl);
    expect((await forgot(registration.email, 'user')).statusCode).toBe(202);
    await eventually(
      async () => market.smtp.to(registration.email).some((m) => m.subject.includes('Reset')),
      'the mail',
    );
    const [row] = await market.api.dataSource.query(
      `SELECT id, position::text, type, aggregate_type AS "aggregateType", aggregate_id AS "aggregateId", payload,
              occurred_at AS "occurredAt" FROM outbox WHERE type = 'PasswordResetRequested' ORDER BY position DESC LIMIT 1`,
    );
    const event = { ...row, occurredAt: new Date(row.occurredAt).toISOString() };
    const dispatcher = market.workers.module.get(EventDispatcher);

    await dispatcher.dispatch(event);
    await market.api.dataSource.query("DELETE FROM inbox WHERE consumer = 'mail' AND event_id = $1", [
      event.id,
    ]);
    await dispatcher.dispatch(event);

    const [{ n }] = await market.api.dataSource.query(
      "SELECT count(*)::int AS n FROM outgoing_mails WHERE template = 'password-reset' AND recipient = $1",
      [registration.email],
    );
    expect(n).toBe(1);
  });

  it('sends merchants to the back-office, in their language', async () => {
    const { registration } = await registerAndSignInMerchant(market.api.baseUrl, { language: 'te' });

    expect((await forgot(registration.email, 'merchant')).statusCode).toBe(202);
    const mail = await eventually(
      async () => market.smtp.to(registration.email).find((m) => m.subject.includes('పాస్‌వర్డ్')),
      'the merchant reset mail',
    );
    const token = new URL(
      linkIn(mail, 'http://office.offers.test/#/reset-password?token=').replace('#/', ''),
    ).searchParams.get('token')!;
    const reset = await inject('POST', '/api/auth/password/reset', {}, { token, password: NEW_PASSWORD });
    const signIn = await inject(
      'POST',
      '/api/auth/merchants/login',
      {},
      {
        userName: registration.userName,
        password: NEW_PASSWORD,
      },
    );

    expect(reset.statusCode).toBe(204);
    expect(signIn.statusCode).toBe(200);
  });

  it('refuses expired, forged and malformed tokens', async () => {
    const { session } = await registerAndSignInUser(market.api.baseUrl);
    const [{ hash }] = await market.api.dataSource.query(
      'SELECT password_hash AS hash FROM users WHERE id = $1',
      [session.id],
    );
    const secret = market.test.environment.SESSION_SECRET;
    const expired = passwordResetToken(secret, 'user', session.id, hash, new Date(Date.now() - 1000));
    const forged = passwordResetToken(
      'x'.repeat(40),
      'user',
      session.id,
      hash,
      new Date(Date.now() + 600_000),
    );
    const otherAccount = passwordResetToken(
      secret,
      'merchant',
      session.id,
      hash,
      new Date(Date.now() + 600_000),
    );

    for (const token of [expired, forged, otherAccount, 'u.1.2.abc', 'nonsense']) {
      const response = await inject(
        'POST',
        '/api/auth/password/reset',
        {},
        { token, password: NEW_PASSWORD },
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(PASSWORD_RESET.invalid);
    }
    expect((await inject('GET', '/api/auth/me', session.bearer)).statusCode).toBe(200);
  });

  it('checks the form', async () => {
    const response = await inject(
      'POST',
      '/api/auth/password/forgot',
      {},
      { email: 'not-an-email', role: 'admin' },
    );

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      email: [PASSWORD_RESET.email.invalid],
      role: [PASSWORD_RESET.role.invalid],
    });
  });
});

describe('sessions', () => {
  it.each([
    ['/api/me/sessions', registerAndSignInUser],
    ['/api/merchant/sessions', registerAndSignInMerchant],
  ] as const)('%s lists the sessions and signs out everywhere', async (url, register) => {
    const { session } = await register(market.api.baseUrl);

    const listed = await inject('GET', url, { ...session.bearer, 'user-agent': 'Test phone' });
    const everywhere = await inject('DELETE', url, session.browser);

    expect(listed.json()).toEqual([
      expect.objectContaining({
        id: expect.any(String),
        current: true,
        apiClient: true,
        lastUsedAt: expect.any(String),
      }),
    ]);
    expect(everywhere.statusCode).toBe(204);
    expect([everywhere.headers['set-cookie']].flat().join('\n')).toMatch(/session=;/);
    expect((await inject('GET', '/api/auth/me', session.bearer)).statusCode).toBe(401);
    expect((await inject('GET', '/api/auth/me', session.browser)).statusCode).toBe(401);
  });
});
