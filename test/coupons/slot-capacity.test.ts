import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { COUPON_REVIEW } from '@offers/api/rules';
import pg from 'pg';
import { registerAndSignInMerchant, type Session } from '../support/accounts.js';
import { approve, type Marketplace, startMarketplace, submitCoupon } from '../support/marketplace.js';

let market: Marketplace;
let merchant: Session;

beforeAll(async () => {
  market = await startMarketplace('slot capacity');
  ({ session: merchant } = await registerAndSignInMerchant(market.api.baseUrl));
});

afterAll(async () => {
  await market?.close();
});

let slots = 0;
async function createSlot(capacity: number): Promise<{ id: number; name: string }> {
  slots += 1;
  const name = `Capacity ${capacity} #${slots}`;
  const response = await market.api.http.inject({
    method: 'POST',
    url: '/api/admin/slots',
    headers: market.admin,
    payload: { name, kind: 'free', capacity },
  });
  expect(response.statusCode).toBe(201);
  return { id: response.json().id, name };
}

const submitMany = async (count: number) => {
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) ids.push(await submitCoupon(market, merchant));
  return ids;
};

const liveIn = async (slotId: number) =>
  (
    await market.api.dataSource.query(
      "SELECT count(*)::int AS n FROM coupons WHERE slot_id = $1 AND status = 'live'",
      [slotId],
    )
  )[0].n as number;

const withdraw = (couponId: number) =>
  market.api.http.inject({
    method: 'DELETE',
    url: `/api/merchant/coupons/${couponId}`,
    headers: merchant.bearer,
  });

const setCapacity = (slotId: number, capacity: number) =>
  market.api.http.inject({
    method: 'PUT',
    url: `/api/admin/slots/${slotId}`,
    headers: market.admin,
    payload: { capacity },
  });

/**
 * Approves, and on a 503 (a bounded wait ran out on a busy machine) tries again after the
 * Retry-After it names, as a client does: every approval ends approved or refused.
 */
async function approveAsAClientWould(couponId: number, slotId: number) {
  for (let attempt = 1; ; attempt += 1) {
    const answer = await approve(market, couponId, slotId);
    if (answer.statusCode !== 503 || attempt === 10) return answer;
    expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
  }
}

describe('slot capacity', () => {
  it('approves concurrently into one slot and never past its capacity', async () => {
    const slot = await createSlot(10);
    const coupons = await submitMany(30);
    const answers = await Promise.all(coupons.map((id) => approveAsAClientWould(id, slot.id)));

    const approved = answers.filter((answer) => answer.statusCode === 200);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect([approved.length, refused.length]).toEqual([10, 20]);
    for (const answer of approved) expect(answer.json()).toMatchObject({ status: 'live', slotId: slot.id });
    for (const answer of refused) expect(answer.json().message).toBe(COUPON_REVIEW.slotFull(slot.name));
    expect(await liveIn(slot.id)).toBe(10);
  });

  it('waits for a seat another approval is taking, and gets it when that approval gives it up', async () => {
    const slot = await createSlot(1);
    const [couponId] = await submitMany(1);
    // Another transaction is taking the only seat.
    const other = new pg.Client({ connectionString: market.test.environment.DATABASE_URL });
    await other.connect();
    await other.query('BEGIN');
    await other.query('SELECT 1 FROM slot_seats WHERE slot_id = $1 FOR UPDATE', [slot.id]);
    const answer = approve(market, couponId!, slot.id);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await other.query('ROLLBACK'); // ... and gives it up
    await other.end();
    expect((await answer).statusCode).toBe(200);
    expect(await liveIn(slot.id)).toBe(1);
  });

  it('frees a seat when its coupon is withdrawn, and when its coupon expires', async () => {
    const slot = await createSlot(1);
    const [first, second, third] = await submitMany(3);
    expect((await approve(market, first!, slot.id)).statusCode).toBe(200);
    expect((await approve(market, second!, slot.id)).statusCode).toBe(409);
    expect((await withdraw(first!)).statusCode).toBe(200);
    expect((await approve(market, second!, slot.id)).statusCode).toBe(200);

    // Time passes: the second coupon reaches its expiry (the sweep has not run yet).
    await market.api.dataSource.query(
      "UPDATE coupons SET expiry_date = now() - interval '1 second' WHERE id = $1",
      [second],
    );
    await market.api.dataSource.query(
      "UPDATE slot_seats SET until = now() - interval '1 second' WHERE coupon_id = $1",
      [second],
    );
    expect((await approve(market, third!, slot.id)).statusCode).toBe(200);
  });

  it('keeps the coupons of a lowered capacity and approves again only below it', async () => {
    const slot = await createSlot(3);
    const coupons = await submitMany(6);
    for (const id of coupons.slice(0, 3)) expect((await approve(market, id, slot.id)).statusCode).toBe(200);

    expect((await setCapacity(slot.id, 2)).statusCode).toBe(200);
    expect(await liveIn(slot.id)).toBe(3);
    expect((await approve(market, coupons[3]!, slot.id)).statusCode).toBe(409);
    expect((await withdraw(coupons[0]!)).statusCode).toBe(200);
    expect((await approve(market, coupons[3]!, slot.id)).statusCode).toBe(409); // 2 live: full
    expect((await withdraw(coupons[1]!)).statusCode).toBe(200);
    // One live, held past the new capacity: of four approvals at once, one goes through.
    const contenders = [coupons[3]!, ...(await submitMany(3))];
    const answers = await Promise.all(contenders.map((id) => approveAsAClientWould(id, slot.id)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await liveIn(slot.id)).toBe(2);

    expect((await setCapacity(slot.id, 4)).statusCode).toBe(200);
    expect((await approve(market, coupons[4]!, slot.id)).statusCode).toBe(200);
    expect((await approve(market, coupons[5]!, slot.id)).statusCode).toBe(200);
    const [extra] = await submitMany(1);
    expect((await approve(market, extra!, slot.id)).statusCode).toBe(409);
    expect(await liveIn(slot.id)).toBe(4);
  });
});
