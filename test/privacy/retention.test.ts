import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { QueueName, QueueRegistry, ScheduledJob } from '@offers/api/platform';
import { keepDevMail, recordMailFailure, recordOutgoingMails } from '@offers/api/read-models';
import { registerAndSignInUser } from '../support/accounts.js';
import { clickOutDaysAgo } from '../support/claims.js';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { cashbackShop, reportPurchase } from '../support/payouts.js';
import { linkIn } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';

/**
 * What is kept, and for how long: each retention sweep runs as the scheduler runs it (a job on the
 * maintenance queue, taken by the workers' scheduler) against the real tables.
 */
let market: EngagementMarket;

beforeAll(async () => {
  market = await startEngagementMarket('retention', { roles: ['relay', 'events', 'scheduler'] });
});

afterAll(async () => {
  await market?.close();
});

const db = () => market.api.dataSource;
const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

async function runScheduled(name: string): Promise<void> {
  const maintenance = market.workers.module.get(QueueRegistry).get(QueueName.Maintenance);
  const job = await maintenance.add(name, {});
  await eventually(async () => {
    const state = await job.getState();
    if (state === 'failed')
      throw new Error(`${name} failed: ${(await maintenance.getJob(job.id!))?.failedReason}`);
    return state === 'completed';
  }, `${name} to run`);
}

/** The stored mail row, every column as text. */
async function storedMail(template: string, recipient: string) {
  return eventually(async () => {
    const [row] = await db().query(
      `SELECT status, subject, text_body, html_body, headers, parameters, to_jsonb(m)::text AS everything
       FROM outgoing_mails m WHERE template = $1 AND recipient = $2`,
      [template, recipient],
    );
    return row?.status === 'sent' && row;
  }, `the ${template} mail to be sent`);
}

const mailTo = (address: string, template: string) =>
  eventually(async () => market.smtp.to(address)[template === 'welcome' ? 0 : 1], `a mail to ${address}`);

describe('sent mails', () => {
  it('keep no password-reset link, body or headers once sent: the template, language and parameters without secrets', async () => {
    const { registration } = await registerAndSignInUser(market.api.baseUrl);
    await mailTo(registration.email, 'welcome');
    expect(
      (await inject('POST', '/api/auth/password/forgot', {}, { email: registration.email, role: 'user' }))
        .statusCode,
    ).toBe(202);
    const mail = await mailTo(registration.email, 'reset');
    const link = linkIn(mail, 'http://shop.offers.test/reset-password?token=');
    const token = new URL(link).searchParams.get('token')!;
    expect(token.length).toBeGreaterThan(20);

    const row = await storedMail('password-reset', registration.email);
    expect(row).toMatchObject({ subject: '', text_body: '', html_body: '', headers: {} });
    expect(row.parameters).toEqual({ name: 'Asha Rao', validForMinutes: expect.any(Number) });
    // Neither the token nor the link, in any column, in any encoding.
    for (const secret of [token, encodeURIComponent(token), link, 'reset-password']) {
      expect(row.everything).not.toContain(secret);
    }
  });

  it('keep no unsubscribe or confirmation token of a newsletter mail once sent', async () => {
    const email = `retention.${randomUUID().slice(0, 8)}@example.in`;
    expect((await inject('POST', '/api/newsletter', {}, { email })).statusCode).toBeLessThan(300);
    const mail = await eventually(async () => market.smtp.to(email)[0], 'the confirmation mail');
    const unsubscribe = /token=([^&>]+)/.exec(mail.headers.get('list-unsubscribe') ?? '')![1]!;
    const confirm = new URL(
      linkIn(mail, 'http://shop.offers.test/api/newsletter/confirm?token='),
    ).searchParams.get('token')!;

    const row = await storedMail('newsletter-confirmation', email);
    expect(row).toMatchObject({ text_body: '', html_body: '', headers: {}, parameters: {} });
    for (const secret of [
      unsubscribe,
      decodeURIComponent(unsubscribe),
      confirm,
      encodeURIComponent(confirm),
    ]) {
      expect(row.everything).not.toContain(secret);
    }
  });

  it('given up after the last attempt keep no body, header or link either', async () => {
    const key = `retention-${randomUUID()}`;
    // Due tomorrow, so the running sender leaves it to this test.
    // An UPDATE answers its rows and its count.
    const [[{ id }]] = await db().transaction(async (manager) => {
      await recordOutgoingMails(manager, [
        {
          idempotencyKey: key,
          template: 'password-reset',
          recipient: 'given.up@example.in',
          language: 'en',
          content: { subject: 'Reset', text: 'https://x/reset?token=GIVENUP', html: '<a>GIVENUP</a>' },
          parameters: { name: 'Asha', resetUrl: 'https://x/reset?token=GIVENUP', validForMinutes: 30 },
        },
      ]);
      return manager.query(
        "UPDATE outgoing_mails SET next_attempt_at = now() + interval '1 day' WHERE idempotency_key = $1 RETURNING id",
        [key],
      );
    });
    await recordMailFailure(db(), {
      mailId: id,
      attempts: 8,
      error: 'refused',
      final: true,
      retryInSeconds: 60,
    });

    const [row] = await db().query(
      'SELECT status, parameters, to_jsonb(m)::text AS everything FROM outgoing_mails m WHERE id = $1',
      [id],
    );
    expect(row.status).toBe('failed');
    expect(row.parameters).toEqual({ name: 'Asha', validForMinutes: 30 });
    expect(row.everything).not.toContain('GIVENUP');
  });

  it('still holding their bodies are emptied by the scheduled job; the development mailbox forgets old mails', async () => {
    const key = `retention-${randomUUID()}`;
    // As a sender of an older version left a sent mail: marked sent with its bodies kept.
    await db().transaction(async (manager) => {
      await recordOutgoingMails(manager, [
        {
          idempotencyKey: key,
          template: 'password-reset',
          recipient: 'old.sent@example.in',
          language: 'en',
          content: { subject: 'Reset', text: 'https://x/reset?token=OLDTOKEN', html: '<a>OLDTOKEN</a>' },
          headers: { 'List-Unsubscribe': '<https://x/u?token=OLDTOKEN>' },
        },
      ]);
      await manager.query("UPDATE outgoing_mails SET status = 'sent' WHERE idempotency_key = $1", [key]);
    });
    await keepDevMail(db(), {
      sender: 'a',
      recipients: 'old.caught@example.in',
      subject: 's',
      text: 'OLD',
      html: '',
    });
    await keepDevMail(db(), {
      sender: 'a',
      recipients: 'new.caught@example.in',
      subject: 's',
      text: 'NEW',
      html: '',
    });
    await db().query(
      "UPDATE dev_mailbox SET received_at = now() - interval '25 hours' WHERE recipients = 'old.caught@example.in'",
    );

    await runScheduled(ScheduledJob.EmptySentMails.name);

    const [row] = await db().query(
      'SELECT to_jsonb(m)::text AS everything FROM outgoing_mails m WHERE idempotency_key = $1',
      [key],
    );
    expect(row.everything).not.toContain('OLDTOKEN');
    const caught = await db().query(
      "SELECT recipients FROM dev_mailbox WHERE recipients IN ('old.caught@example.in', 'new.caught@example.in')",
    );
    expect(caught).toEqual([{ recipients: 'new.caught@example.in' }]);
  });
});

describe('anonymous clicks', () => {
  it('past the period become daily counts and go; shoppers’ clicks, recent ones and those an earning names stay', async () => {
    const shop = await cashbackShop(market);
    const from = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });
    const old = [
      await clickOutDaysAgo(market, shop.couponId, from(11), 100),
      await clickOutDaysAgo(market, shop.couponId, from(12), 100),
      await clickOutDaysAgo(market, shop.couponId, from(13), 120),
    ];
    const recent = await clickOutDaysAgo(market, shop.couponId, from(14), 10);
    const { session: shopper } = await registerAndSignInUser(market.api.baseUrl);
    const shoppers = await clickOutDaysAgo(market, shop.couponId, { ...shopper.bearer, ...from(15) }, 100);
    // A forgotten shopper's click: anonymous now, but their earning (kept by law) names it.
    const { session: forgotten } = await registerAndSignInUser(market.api.baseUrl);
    const named = await clickOutDaysAgo(market, shop.couponId, { ...forgotten.bearer, ...from(16) }, 100);
    const [{ referral_code: code }] = await db().query('SELECT referral_code FROM users WHERE id = $1', [
      forgotten.id,
    ]);
    expect((await reportPurchase(market, shop, code, '500')).statusCode).toBe(201);
    await db().query('UPDATE earnings SET click_id = $1 WHERE user_id = $2', [named, forgotten.id]);
    await db().query('UPDATE clicks SET user_id = NULL, client_address_key = NULL WHERE id = $1', [named]);

    const perDay = `
      SELECT day::text, sum(n)::int AS n FROM (
        SELECT (clicked_at AT TIME ZONE 'Asia/Kolkata')::date AS day, count(*) AS n FROM clicks WHERE coupon_id = $1 GROUP BY 1
        UNION ALL
        SELECT day, count FROM click_days WHERE coupon_id = $1) counts
      GROUP BY day ORDER BY day`;
    const before = await db().query(perDay, [shop.couponId]);
    expect(before.reduce((sum: number, day: { n: number }) => sum + day.n, 0)).toBe(6);

    await runScheduled(ScheduledJob.SweepAnonymousClicks.name);

    const left = await db().query('SELECT id FROM clicks WHERE coupon_id = $1', [shop.couponId]);
    expect(left.map((click: { id: string }) => click.id).sort()).toEqual([recent, shoppers, named].sort());
    for (const id of old) expect(left).not.toContainEqual({ id });
    const days = await db().query(
      'SELECT day::text, merchant_id AS "merchantId", count FROM click_days WHERE coupon_id = $1 ORDER BY day',
      [shop.couponId],
    );
    expect(days.map((day: { count: number }) => day.count).sort()).toEqual([1, 2]);
    expect(days.every((day: { merchantId: number }) => day.merchantId === shop.merchant.id)).toBe(true);
    // The clicks of each day, kept or counted, are as many as before.
    expect(await db().query(perDay, [shop.couponId])).toEqual(before);

    // Swept again, nothing more goes and nothing is counted twice.
    await runScheduled(ScheduledJob.SweepAnonymousClicks.name);
    expect(await db().query(perDay, [shop.couponId])).toEqual(before);
  });
});

describe('the inbox', () => {
  it('forgets the rows of processed events past the period; unprocessed events’ rows and the outbox stay', async () => {
    const [processed, recent, unprocessed] = [randomUUID(), randomUUID(), randomUUID()];
    // Events no consumer handles, in the log as published (so the relay leaves them alone).
    await db().query(
      `INSERT INTO outbox (id, type, aggregate_type, aggregate_id, payload, published_at, processed_at)
       VALUES ($1, 'RetentionProbe', 'Probe', '1', '{}', now(), now()),
              ($2, 'RetentionProbe', 'Probe', '2', '{}', now(), now()),
              ($3, 'RetentionProbe', 'Probe', '3', '{}', now(), NULL)`,
      [processed, recent, unprocessed],
    );
    await db().query(
      `INSERT INTO inbox (consumer, event_id, handled_at)
       VALUES ('retention-probe', $1, now() - interval '31 days'), ('retention-probe', $2, now() - interval '29 days'),
              ('retention-probe', $3, now() - interval '31 days')`,
      [processed, recent, unprocessed],
    );

    await runScheduled(ScheduledJob.PurgeHandledInbox.name);

    const left = await db().query(
      "SELECT event_id FROM inbox WHERE consumer = 'retention-probe' ORDER BY handled_at",
      [],
    );
    expect(left.map((row: { event_id: string }) => row.event_id).sort()).toEqual(
      [recent, unprocessed].sort(),
    );
    const [{ n }] = await db().query('SELECT count(*)::int AS n FROM outbox WHERE id = ANY($1::uuid[])', [
      [processed, recent, unprocessed],
    ]);
    expect(n).toBe(3);
  });
});
