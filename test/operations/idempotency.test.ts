import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEVELOPMENT_ADMIN_PASSWORD } from '@offers/api/identity/admin-seed';
import { purgeIdempotencyKeys } from '@offers/api/infrastructure/idempotency/idempotency-store';
import { IDEMPOTENCY, SERVICE_BUSY } from '@offers/api/rules/http';
import { BEARER_SIGN_IN, registerAndSignInMerchant, type Session } from '../support/accounts.js';
import { type ApiApp, type HttpRequest, startApi } from '../support/api-app.js';
import { couponForm, multipart, ONE_PIXEL_PNG } from '../support/coupons.js';
import { type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';
import { holdTableLock } from '../support/table-lock.js';

let market: Marketplace;
let merchant: Session;

beforeAll(async () => {
  market = await startMarketplace('idempotency');
  ({ session: merchant } = await registerAndSignInMerchant(market.api.baseUrl));
});

afterAll(async () => {
  await market?.close();
});

const withKey = (key: string, headers: Record<string, string> = {}) => ({
  ...headers,
  'idempotency-key': key,
});

const approveWith = (
  key: string | undefined,
  couponId: number,
  payload: unknown = {},
  api: ApiApp = market.api,
) =>
  api.http.inject({
    method: 'POST',
    url: `/api/admin/coupons/${couponId}/approve`,
    headers: key === undefined ? market.admin : withKey(key, market.admin),
    payload,
  });

const countEvents = async (type: string, aggregateId: number | string) =>
  (
    await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM outbox WHERE type = $1 AND aggregate_id = $2',
      [type, String(aggregateId)],
    )
  )[0].n as number;

describe('Idempotency-Key', () => {
  it('replays the first answer of an approval retried with the same key, approving once', async () => {
    const couponId = await submitCoupon(market, merchant);
    const key = randomUUID();
    const first = await approveWith(key, couponId);
    const retry = await approveWith(key, couponId);

    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(retry.body).toBe(first.body);
    expect(await countEvents('CouponApproved', couponId)).toBe(1);
    // Without a key, the same retry is a second command, refused as before.
    expect((await approveWith(undefined, couponId)).statusCode).toBe(409);
  });

  it('refuses the same key with a different body or on another route with 422', async () => {
    const couponId = await submitCoupon(market, merchant);
    const key = randomUUID();
    expect((await approveWith(key, couponId, { slotId: 1 })).statusCode).toBe(200);

    const otherBody = await approveWith(key, couponId, { slotId: 2 });
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toEqual({ statusCode: 422, message: IDEMPOTENCY.messages.differentRequest });
    const otherRoute = await market.api.http.inject({
      method: 'POST',
      url: `/api/admin/coupons/${couponId}/reject`,
      headers: withKey(key, market.admin),
      payload: { reason: 'Not clear' },
    });
    expect(otherRoute.statusCode).toBe(422);
    // The same JSON spaced and ordered differently is the same request.
    const respaced = await market.api.http.inject({
      method: 'POST',
      url: `/api/admin/coupons/${couponId}/approve`,
      headers: { ...withKey(key, market.admin), 'content-type': 'application/json' },
      payload: '{ "slotId" : 1 }',
    });
    expect(respaced.statusCode).toBe(200);
    expect(respaced.headers['idempotent-replayed']).toBe('true');
  });

  it('keeps keys apart per caller', async () => {
    const { session: other } = await registerAndSignInMerchant(market.api.baseUrl);
    const key = randomUUID();
    const submit = (session: Session) =>
      market.api.http.inject({
        method: 'POST',
        url: '/api/merchant/coupons',
        headers: withKey(key, session.bearer),
        payload: couponForm({ couponCode: 'SAMEKEY1' }),
      });
    const [mine, theirs] = [await submit(merchant), await submit(other)];
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(mine.json().id).not.toBe(theirs.json().id);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it('runs concurrent duplicates once: the others wait their turn (409) or get the same answer', async () => {
    const key = randomUUID();
    const request: HttpRequest = {
      method: 'POST',
      url: '/api/merchant/coupons',
      headers: withKey(key, merchant.bearer),
      payload: couponForm({ couponCode: 'RACE1' }),
    };
    const answers = await Promise.all(Array.from({ length: 8 }, () => market.api.http.inject(request)));
    const created = answers.filter((answer) => answer.statusCode === 201);
    const busy = answers.filter((answer) => answer.statusCode === 409);
    expect(created.length + busy.length).toBe(8);
    expect(new Set(created.map((answer) => answer.json().id)).size).toBe(1);
    for (const answer of busy) {
      expect(answer.json()).toEqual({ statusCode: 409, message: IDEMPOTENCY.messages.inProgress });
      expect(answer.headers['retry-after']).toBe(String(IDEMPOTENCY.retryAfterSeconds));
    }
    const replay = await market.api.http.inject(request);
    expect(replay.statusCode).toBe(201);
    expect(replay.json().id).toBe(created[0]!.json().id);
    const [{ n }] = await market.api.dataSource.query(
      "SELECT count(*)::int AS n FROM coupons WHERE coupon_code = 'RACE1' AND merchant_id = $1",
      [merchant.id],
    );
    expect(n).toBe(1);
  });

  it('treats a multipart form sent again (new boundary) as the same request, and a changed one as another', async () => {
    const key = randomUUID();
    const fields = couponForm({ couponCode: 'MULTI1' });
    const send = (form: Record<string, unknown>, image = ONE_PIXEL_PNG) => {
      const body = multipart(form, { adPost: { name: 'ad.png', type: 'image/png', bytes: image } });
      return market.api.http.inject({
        method: 'POST',
        url: '/api/merchant/coupons',
        headers: { ...withKey(key, merchant.bearer), ...body.headers },
        payload: body.payload,
      });
    };
    const first = await send(fields);
    const again = await send(fields);
    const changed = await send({ ...fields, title: 'Another title' });
    const otherImage = await send(fields, Buffer.concat([ONE_PIXEL_PNG, Buffer.from([0])]));

    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(changed.statusCode).toBe(422);
    expect(otherImage.statusCode).toBe(422);
  });

  it("keys a visitor's public form by the client address", async () => {
    const key = randomUUID();
    const contact = (address: string) =>
      market.api.http.inject({
        method: 'POST',
        url: '/api/contact',
        headers: withKey(key, { 'x-forwarded-for': address }),
        payload: { name: 'Asha', email: 'asha@example.in', msg: 'Where is my cashback?' },
      });
    const first = await contact('10.77.0.1');
    const retry = await contact('10.77.0.1');
    const elsewhere = await contact('10.77.0.2');
    expect(first.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(elsewhere.json().id).not.toBe(first.json().id);
  });

  it('refuses a malformed key with 400 and reads a quoted one', async () => {
    const couponId = await submitCoupon(market, merchant);
    for (const key of ['', 'x'.repeat(256), 'has space', 'tab\there', '""']) {
      const answer = await approveWith(key, couponId);
      expect({ key, status: answer.statusCode, body: answer.json() }).toEqual({
        key,
        status: 400,
        body: { statusCode: 400, message: IDEMPOTENCY.messages.invalid },
      });
    }
    const quoted = await approveWith('"abc-123"', couponId);
    const bare = await approveWith('abc-123', couponId);
    expect(quoted.statusCode).toBe(200);
    expect(bare.headers['idempotent-replayed']).toBe('true');
  });

  it('replays a refusal (409) but not a 503: a retry after the lock runs anew', async () => {
    const couponId = await submitCoupon(market, merchant);
    expect((await approveWith(undefined, couponId)).statusCode).toBe(200);
    const refusedKey = randomUUID();
    const refused = await approveWith(refusedKey, couponId);
    expect(refused.statusCode).toBe(409);
    const refusedAgain = await approveWith(refusedKey, couponId);
    expect(refusedAgain.statusCode).toBe(409);
    expect(refusedAgain.headers['idempotent-replayed']).toBe('true');
    expect(refusedAgain.body).toBe(refused.body);

    const pending = await submitCoupon(market, merchant);
    const key = randomUUID();
    const lock = await holdTableLock(market.test.environment.DATABASE_URL, 'coupons', 'ACCESS EXCLUSIVE');
    let busy: Awaited<ReturnType<typeof approveWith>>;
    try {
      busy = await approveWith(key, pending);
    } finally {
      await lock();
    }
    expect(busy.statusCode).toBe(503);
    const retry = await approveWith(key, pending);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });

  it('gives a retry after a request timeout the real outcome of the first attempt', async () => {
    const patient = await startApi({
      ...market.test.environment,
      API_LOCK_TIMEOUT_MS: 30_000,
      API_STATEMENT_TIMEOUT_MS: 30_000,
      REQUEST_TIMEOUT_MS: 1000,
    });
    try {
      await timeoutThenRetry(patient);
    } finally {
      await patient.close();
    }
  });

  it('does not keep sign-in answers, which carry credentials', async () => {
    const key = randomUUID();
    const signIn = () =>
      market.api.http.inject({
        method: 'POST',
        url: '/api/auth/admin/login',
        headers: withKey(key, BEARER_SIGN_IN),
        payload: { username: 'admin', password: DEVELOPMENT_ADMIN_PASSWORD },
      });
    const [first, second] = [await signIn(), await signIn()];
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().token).not.toBe(first.json().token);
    const [{ n }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1',
      [key],
    );
    expect(n).toBe(0);
  });

  it('lets a key be used again once its day is over, and purges old keys', async () => {
    const couponId = await submitCoupon(market, merchant);
    const key = randomUUID();
    expect((await approveWith(key, couponId, { slotId: 1 })).statusCode).toBe(200);
    await market.api.dataSource.query(
      "UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1",
      [key],
    );
    const reused = await approveWith(key, couponId, { slotId: 2 });
    expect(reused.statusCode).toBe(409); // run anew: the coupon is no longer pending
    expect(reused.headers['idempotent-replayed']).toBeUndefined();

    await market.api.dataSource.query(
      "UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1",
      [key],
    );
    expect(await purgeIdempotencyKeys(market.api.dataSource)).toBeGreaterThanOrEqual(1);
    const [{ n }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS n FROM idempotency_keys WHERE key = $1',
      [key],
    );
    expect(n).toBe(0);
  });
});

/** Retries while the first attempt is still held (409 with Retry-After), as a client would. */
async function eventuallyAnswer(attempt: () => ReturnType<typeof approveWith>) {
  for (let tries = 0; ; tries += 1) {
    const answer = await attempt();
    if (answer.statusCode !== 409 || tries > 50) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** An approval answered 503 at the request deadline, retried with its key until it has an answer. */
async function timeoutThenRetry(patient: ApiApp) {
  const couponId = await submitCoupon(market, merchant);
  const key = randomUUID();
  const release = await holdTableLock(market.test.environment.DATABASE_URL, 'coupons', 'ACCESS EXCLUSIVE');
  try {
    const timedOut = await approveWith(key, couponId, {}, patient);
    expect(timedOut.statusCode).toBe(503);
    expect(timedOut.json().message).toBe(SERVICE_BUSY.message);
    // The approval still waits for the lock: its key is held.
    const early = await approveWith(key, couponId, {}, patient);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(IDEMPOTENCY.messages.inProgress);
  } finally {
    await release();
  }
  const outcome = await eventuallyAnswer(() => approveWith(key, couponId, {}, patient));
  expect(outcome.statusCode).toBe(200);
  expect(outcome.headers['idempotent-replayed']).toBe('true');
  expect(outcome.json()).toMatchObject({ id: couponId, status: 'live' });
  expect(await countEvents('CouponApproved', couponId)).toBe(1);
}
