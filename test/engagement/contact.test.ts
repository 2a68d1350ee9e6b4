import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CONTACT_FORM, FORM_LIMITS } from '@offers/api/rules';
import { type EngagementMarket, startEngagementMarket } from '../support/engagement.js';
import { eventually } from '../support/test-environment.js';

let market: EngagementMarket;

beforeAll(async () => {
  market = await startEngagementMarket('engagement contact');
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, headers: Record<string, string> = {}, payload?: unknown) =>
  market.api.http.inject({ method, url, headers, payload });

const stored = async () =>
  (await market.api.dataSource.query('SELECT count(*)::int AS n FROM contact_messages'))[0].n as number;

it('refuses an incomplete or malformed message with each field’s message, and stores nothing', async () => {
  const cases: Array<[unknown, Record<string, string[]>]> = [
    [{ name: ' ', email: 'asha@example.in', msg: 'Hello' }, { name: [CONTACT_FORM.name.required] }],
    [{ name: 'Asha', email: 'asha@', msg: 'Hello' }, { email: [CONTACT_FORM.email.invalid] }],
    [
      { name: 'Asha', email: 'asha@example.in', mobile: '98765', msg: 'Hello' },
      { mobile: [CONTACT_FORM.mobile.invalid] },
    ],
    [{ name: 'Asha', email: 'asha@example.in', msg: '' }, { msg: [CONTACT_FORM.msg.required] }],
    [
      { name: 'Asha', email: 'asha@example.in', msg: 'x'.repeat(2001) },
      { msg: ['Must be at most 2000 characters.'] },
    ],
  ];
  for (const [payload, errors] of cases) {
    const response = await inject('POST', '/api/contact', {}, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual(errors);
  }
  expect(await stored()).toBe(0);
});

it('stores a message, tells the admins by mail, and lets an admin mark it handled', async () => {
  const response = await inject(
    'POST',
    '/api/contact',
    {},
    {
      name: 'Ravi Kumar',
      email: 'ravi@example.in',
      mobile: '',
      msg: 'My cashback for order 123 is missing.',
    },
  );
  expect(response.statusCode).toBe(201);
  expect(response.json()).toMatchObject({ message: CONTACT_FORM.submitted });
  const id = response.json().id;

  const [notice] = await eventually(async () => {
    const mails = market.smtp.to(market.test.environment.ADMIN_EMAIL);
    return mails.length > 0 && mails;
  }, 'the admins’ notice');
  expect(notice!.subject).toBe('New contact message from Ravi Kumar');
  expect(notice!.text).toContain('> My cashback for order 123 is missing.');
  expect(notice!.text).toContain(`http://office.offers.test/contact-messages/${id}`);

  const list = await inject('GET', '/api/admin/contact-messages?filter={"handled":false}', market.admin);
  expect(list.headers['content-range']).toBe('contact-messages 0-0/1');
  expect(list.json()[0]).toMatchObject({ id, name: 'Ravi Kumar', mobile: null, handled: false });

  const handled = await inject('PUT', `/api/admin/contact-messages/${id}`, market.admin, {
    ...list.json()[0],
    handled: true,
  });
  expect(handled.statusCode).toBe(200);
  expect(handled.json()).toMatchObject({ handled: true, handledAt: expect.any(String) });
  const open = await inject('GET', '/api/admin/contact-messages?filter={"handled":false}', market.admin);
  expect(open.json()).toEqual([]);
  expect(
    (await inject('PUT', '/api/admin/contact-messages/999', market.admin, { handled: true })).statusCode,
  ).toBe(404);
});

it('asks an address that sends too many messages to wait, and keeps only those accepted', async () => {
  const before = await stored();
  const answers = [];
  for (let i = 0; i < FORM_LIMITS.contact.perWindow; i += 1) {
    answers.push(
      (
        await inject(
          'POST',
          '/api/contact',
          {},
          { name: 'Flood', email: 'flood@example.in', msg: `Message ${i}` },
        )
      ).statusCode,
    );
  }
  // One accepted message was sent by the test before; the window allows five.
  expect(answers).toEqual([201, 201, 201, 201, 429]);
  const refused = await inject(
    'POST',
    '/api/contact',
    {},
    { name: 'Flood', email: 'flood@example.in', msg: 'x' },
  );
  expect(refused.json()).toEqual({ statusCode: 429, message: FORM_LIMITS.message });
  expect(await stored()).toBe(before + 4);
});
