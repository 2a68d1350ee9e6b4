import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { resumeStalledCampaigns } from '@offers/api/engagement/commands/campaigns';
import { UnitOfWork } from '@offers/api/infrastructure/events/unit-of-work';
import { NEWSLETTER } from '@offers/api/rules/engagement';
import { apiPath, type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { type RunningProcess, startNode } from '../support/processes.js';
import { linkIn } from '../support/smtp.js';
import { eventually } from '../support/test-environment.js';

/**
 * The relay runs in this process; consumers, mail senders and campaign batches run in a real
 * workers process, which the campaign test kills.
 */
let market: EngagementMarket;
let worker: RunningProcess | undefined;

const startWorkerProcess = () =>
  startNode('workers/dist/src/main.js', {
    ...market.test.variables,
    WORKER_ROLES: 'events',
    MAIL_CONCURRENCY: '4',
  });

beforeAll(async () => {
  market = await startEngagementMarket('engagement newsletter', { roles: ['relay'] });
  worker = startWorkerProcess();
});

afterAll(async () => {
  await worker?.stop('SIGKILL');
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

const mailsTo = (address: string, count = 1) =>
  eventually(async () => {
    const mails = market.smtp.to(address);
    return mails.length >= count && mails;
  }, `${count} mail(s) to ${address}`);

const subscriber = async (email: string) =>
  (
    await market.api.dataSource.query(
      'SELECT id, status, language FROM newsletter_subscribers WHERE lower(email) = $1',
      [email.toLowerCase()],
    )
  )[0];

let counter = 0;
function anAddress() {
  counter += 1;
  return `reader.${Date.now()}.${counter}@example.in`;
}

describe('subscribing', () => {
  it('refuses an invalid address with the form’s message', async () => {
    for (const email of ['not-an-email', 'a@b', `${'x'.repeat(250)}@example.in`]) {
      const response = await inject('POST', '/api/newsletter', {}, { email });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        message: NEWSLETTER.email.invalid,
        errors: { email: [NEWSLETTER.email.invalid] },
      });
    }
    expect((await inject('POST', '/api/newsletter', {}, {})).json().message).toBe(NEWSLETTER.email.required);
    expect(
      (await market.api.dataSource.query('SELECT count(*)::int AS n FROM newsletter_subscribers'))[0].n,
    ).toBe(0);
  });

  it('confirms by a mailed link (double opt-in), in the browser’s language, with List-Unsubscribe', async () => {
    const email = anAddress();
    const response = await inject(
      'POST',
      '/api/newsletter',
      { 'accept-language': 'te-IN,te;q=0.9,en;q=0.8' },
      {
        EmailAddress: email,
      },
    );
    expect(response.statusCode).toBe(202);
    expect(await subscriber(email)).toMatchObject({ status: 'pending', language: 'te' });

    const [mail] = await mailsTo(email);
    expect(mail!.subject).toBe('దయచేసి మీ న్యూస్‌లెటర్ చందాను నిర్ధారించండి');
    expect(String(mail!.headers.get('list-unsubscribe'))).toMatch(
      /^<http:\/\/shop\.offers\.test\/api\/newsletter\/unsubscribe\?token=.+>$/,
    );
    const confirmed = await inject(
      'GET',
      apiPath(linkIn(mail!, 'http://shop.offers.test/api/newsletter/confirm')),
    );
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.headers['content-type']).toMatch(/^text\/html/);
    expect(confirmed.body).toContain('మీ చందా నిర్ధారించబడింది');
    expect(await subscriber(email)).toMatchObject({ status: 'confirmed' });

    // Again: still fine; a forged token: refused.
    expect(
      (await inject('GET', apiPath(linkIn(mail!, 'http://shop.offers.test/api/newsletter/confirm'))))
        .statusCode,
    ).toBe(200);
    const forged = await inject(
      'GET',
      `/api/newsletter/confirm?token=${(await subscriber(email)).id}.1.${'A'.repeat(43)}`,
    );
    expect(forged.statusCode).toBe(400);
  });

  it('keeps one subscriber and sends at most one confirmation an hour, however often it subscribes', async () => {
    const email = anAddress();
    const answers = await Promise.all(
      [email, email.toUpperCase(), email, email].map((address) =>
        inject('POST', '/api/newsletter', {}, { email: address }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202, 202, 202]);
    await inject('POST', '/api/newsletter', {}, { email });
    // A later subscriber's mail arrives after anything the repeats could have sent.
    const later = anAddress();
    await inject('POST', '/api/newsletter', {}, { email: later });
    await mailsTo(later);
    await eventually(
      async () =>
        (await market.api.dataSource.query("SELECT 1 FROM outgoing_mails WHERE status = 'pending'"))
          .length === 0,
      'every recorded mail sent',
    );

    expect(market.smtp.to(email)).toHaveLength(1);
    const rows = await market.api.dataSource.query(
      'SELECT 1 FROM newsletter_subscribers WHERE lower(email) = $1',
      [email],
    );
    expect(rows).toHaveLength(1);
  });

  it('unsubscribes by the link in the header, by one click too, and says so in the subscriber’s language', async () => {
    const email = anAddress();
    await inject('POST', '/api/newsletter', {}, { email, language: 'hi' });
    const [mail] = await mailsTo(email);
    const unsubscribe = String(mail!.headers.get('list-unsubscribe')).slice(1, -1);

    expect(mail!.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // Following the link (as a mail scanner does) changes nothing: it asks, with a button.
    const page = await inject('GET', apiPath(unsubscribe));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('न्यूज़लेटर से सदस्यता समाप्त करें?');
    expect(page.body).toContain(
      '<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button',
    );
    expect((await subscriber(email))?.status).not.toBe('unsubscribed');
    // The button's form POST: form-encoded, from the site's own page. It acts.
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://shop.offers.test' };
    const confirmed = await inject('POST', apiPath(unsubscribe), form, 'List-Unsubscribe=One-Click');
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain('आपकी सदस्यता समाप्त कर दी गई है');
    expect(await subscriber(email)).toMatchObject({ status: 'unsubscribed' });
    // A mail provider's one-click POST (no Origin), again: the same answer.
    const oneClick = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(
      (await inject('POST', apiPath(unsubscribe), oneClick, 'List-Unsubscribe=One-Click')).statusCode,
    ).toBe(200);
    // A bad signature is still refused.
    const forged = apiPath(unsubscribe).replace(/token=([^&]+)/, (_, t) => `token=${t.slice(0, -3)}xyz`);
    expect((await inject('POST', forged, oneClick, 'List-Unsubscribe=One-Click')).statusCode).toBe(400);
    // The confirmation link from before the unsubscription no longer subscribes.
    const late = await inject(
      'GET',
      apiPath(linkIn(mail!, 'http://shop.offers.test/api/newsletter/confirm')),
    );
    expect(late.statusCode).toBe(400);
    expect(await subscriber(email)).toMatchObject({ status: 'unsubscribed' });
  });

  it('lists subscribers for the admins, searched and filtered by status and language', async () => {
    const prefix = `listed.${Date.now()}`;
    const [hindi, telugu, confirmedTelugu] = ['a', 'b', 'c'].map((name) => `${prefix}.${name}@example.in`);
    await market.api.dataSource.query(
      `INSERT INTO newsletter_subscribers (email, language, status, confirmed_at)
       VALUES ($1, 'hi', 'pending', NULL), ($2, 'te', 'pending', NULL), ($3, 'te', 'confirmed', now())`,
      [hindi, telugu, confirmedTelugu],
    );
    const list = (filter: Record<string, string>) =>
      inject(
        'GET',
        `/api/admin/subscribers?sort=${encodeURIComponent('["email","ASC"]')}&filter=${encodeURIComponent(
          JSON.stringify({ q: prefix, ...filter }),
        )}`,
        market.admin,
      );
    const emails = (response: Awaited<ReturnType<typeof list>>) =>
      response.json().map((row: { email: string }) => row.email);

    const inTelugu = await list({ language: 'te' });
    expect(inTelugu.statusCode).toBe(200);
    expect(inTelugu.headers['content-range']).toBe('subscribers 0-1/2');
    expect(emails(inTelugu)).toEqual([telugu, confirmedTelugu]);
    expect(emails(await list({ language: 'te', status: 'pending' }))).toEqual([telugu]);
    // A language or status the list does not know filters nothing out.
    expect(emails(await list({ language: 'fr', status: 'gone' }))).toEqual([hindi, telugu, confirmedTelugu]);

    const [first] = inTelugu.json();
    const one = await inject('GET', `/api/admin/subscribers/${first.id}`, market.admin);
    expect(one.json()).toMatchObject({ email: telugu, language: 'te', status: 'pending', confirmedAt: null });
    expect((await inject('GET', '/api/admin/subscribers/999999', market.admin)).statusCode).toBe(404);
  });
});

describe('campaigns', () => {
  it('edits and deletes drafts only, and validates them', async () => {
    const invalid = await inject('POST', '/api/admin/campaigns', market.admin, {
      subject: ' ',
      body: 'Hello',
      featuredCouponIds: [1, 2, 3, 4, 5, 6, 7],
    });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['featuredCouponIds', 'subject']);

    const draft = (
      await inject('POST', '/api/admin/campaigns', market.admin, { subject: 'Draft', body: 'Text' })
    ).json();
    expect(draft).toMatchObject({
      status: 'draft',
      featuredCouponIds: [],
      progress: { sent: 0, skipped: 0, total: 0 },
    });
    const edited = await inject('PUT', `/api/admin/campaigns/${draft.id}`, market.admin, {
      ...draft,
      subject: 'Edited draft',
      featuredCouponIds: ['3', 4],
    });
    expect(edited.json()).toMatchObject({ subject: 'Edited draft', body: 'Text', featuredCouponIds: [3, 4] });
    const list = await inject('GET', '/api/admin/campaigns?filter={"status":"draft"}', market.admin);
    expect(list.json().map((campaign: { id: number }) => campaign.id)).toContain(draft.id);
    expect((await inject('DELETE', `/api/admin/campaigns/${draft.id}`, market.admin)).statusCode).toBe(200);
    expect((await inject('GET', `/api/admin/campaigns/${draft.id}`, market.admin)).statusCode).toBe(404);
  });

  it('mails each of 1,000 subscribers exactly once although the sending worker is killed midway', async () => {
    const { dataSource } = market.api;
    await dataSource.query(
      `INSERT INTO newsletter_subscribers (email, language, status, confirmed_at)
       SELECT 'fan' || n || '@example.in', (ARRAY['en', 'hi', 'te'])[n % 3 + 1], 'confirmed', now()
       FROM generate_series(1, 1000) AS n`,
    );
    const created = await inject('POST', '/api/admin/campaigns', market.admin, {
      subject: 'Diwali offers are here',
      body: 'Lights, sweets and savings.\n\nOur best coupons of the season.',
    });
    expect(created.statusCode).toBe(201);
    const campaignId = created.json().id;
    const started = await inject('POST', `/api/admin/campaigns/${campaignId}/send`, market.admin);
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ status: 'sending', progress: { total: expect.any(Number) } });
    const total = started.json().progress.total as number;
    expect(total).toBeGreaterThanOrEqual(1000);

    const campaignMails = () =>
      market.smtp.received.filter((mail) => mail.subject === 'Diwali offers are here');
    await eventually(async () => campaignMails().length >= 300, '300 campaign mails', 60_000);

    // Stop accepting mails, let every accepted one be committed, then kill the worker while
    // its senders wait for the server's answer.
    market.smtp.hold();
    const accepted = campaignMails().length;
    await eventually(async () => {
      const [{ sent }] = await dataSource.query('SELECT sent_count AS sent FROM campaigns WHERE id = $1', [
        campaignId,
      ]);
      return sent === accepted && market.smtp.heldCount > 0;
    }, 'the accepted mails to be recorded as sent');
    await worker!.stop('SIGKILL');
    await eventually(async () => market.smtp.heldClientsGone(), 'the killed worker to hang up');
    market.smtp.release();
    expect(campaignMails().length).toBe(accepted);
    const midway = (await inject('GET', `/api/admin/campaigns/${campaignId}`, market.admin)).json();
    expect(midway.progress.sent).toBe(accepted);
    expect(midway.status).toBe('sending');

    worker = startWorkerProcess();
    await eventually(
      async () =>
        (await inject('GET', `/api/admin/campaigns/${campaignId}`, market.admin)).json().status === 'sent',
      'the campaign to finish',
      90_000,
    );

    const perRecipient = new Map<string, number>();
    for (const mail of campaignMails()) perRecipient.set(mail.to, (perRecipient.get(mail.to) ?? 0) + 1);
    expect(perRecipient.size).toBe(total);
    expect([...perRecipient.values()].filter((count) => count !== 1)).toEqual([]);
    expect(accepted).toBeLessThan(total); // the kill did interrupt the campaign
    const finished = (await inject('GET', `/api/admin/campaigns/${campaignId}`, market.admin)).json();
    expect(finished.progress).toEqual({ sent: total, skipped: 0, total });

    const hindi = campaignMails().find((mail) => mail.to === 'fan1@example.in')!;
    expect(hindi.text).toContain('सदस्यता छोड़ें');
    expect(String(hindi.headers.get('list-unsubscribe'))).toContain('/api/newsletter/unsubscribe?token=');
    expect((await inject('POST', `/api/admin/campaigns/${campaignId}/send`, market.admin)).statusCode).toBe(
      409,
    );
    expect(
      (await inject('PUT', `/api/admin/campaigns/${campaignId}`, market.admin, { subject: 'Late' }))
        .statusCode,
    ).toBe(409);
    expect((await inject('DELETE', `/api/admin/campaigns/${campaignId}`, market.admin)).statusCode).toBe(409);
  }, 180_000);

  it('resumes a campaign whose jobs vanished (Redis lost them) once it has stalled', async () => {
    await worker!.stop();
    const created = await inject('POST', '/api/admin/campaigns', market.admin, {
      subject: 'Weekend flash sale',
      body: 'Two days only.',
    });
    const campaignId = created.json().id;
    expect((await inject('POST', `/api/admin/campaigns/${campaignId}/send`, market.admin)).statusCode).toBe(
      202,
    );
    await eventually(
      async () => (await market.workers.domainEvents.getJobCounts('waiting')).waiting > 0,
      'the send event to be published',
    );
    await market.workers.domainEvents.obliterate({ force: true }); // as if Redis restarted empty
    const unitOfWork = market.api.app.get(UnitOfWork);
    expect(await resumeStalledCampaigns(unitOfWork)).toBe(0); // not stalled yet

    await market.api.dataSource.query(
      "UPDATE campaigns SET updated_at = now() - interval '5 minutes' WHERE id = $1",
      [campaignId],
    );
    expect(await resumeStalledCampaigns(unitOfWork)).toBe(1);
    worker = startWorkerProcess();
    const finished = await eventually(
      async () => {
        const campaign = (await inject('GET', `/api/admin/campaigns/${campaignId}`, market.admin)).json();
        return campaign.status === 'sent' && campaign;
      },
      'the resumed campaign to finish',
      60_000,
    );
    const mails = market.smtp.received.filter((mail) => mail.subject === 'Weekend flash sale');
    expect(new Set(mails.map((mail) => mail.to)).size).toBe(mails.length);
    expect(mails.length).toBe(finished.progress.sent);
    expect(finished.progress.sent + finished.progress.skipped).toBe(finished.progress.total);
  }, 120_000);
});
