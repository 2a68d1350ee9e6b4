import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SLOT_MESSAGES } from '@offers/api/rules/coupons';
import { type Marketplace, merchantWithCoupon, startMarketplace } from '../support/marketplace.js';

// No relay and no consumers: every event a command records stays in the outbox to be read.
let market: Marketplace;

beforeAll(async () => {
  market = await startMarketplace('slot-commands', { roles: [], consumers: [] });
});

afterAll(async () => {
  await market?.close();
});

const inject = (method: string, url: string, payload?: unknown) =>
  market.api.http.inject({ method, url, headers: market.admin, payload });

const query = <T = Record<string, unknown>>(sql: string, parameters: unknown[] = []) =>
  market.api.dataSource.query(sql, parameters) as Promise<T[]>;

/** The slot events recorded so far, in order. */
const slotEvents = () =>
  query<{ type: string; aggregateId: string; payload: Record<string, unknown> }>(
    `SELECT type, aggregate_id AS "aggregateId", payload FROM outbox
     WHERE aggregate_type = 'Slot' ORDER BY position`,
  );

const slotRow = async (id: number) =>
  (
    await query('SELECT name, kind, price_paise::float8 AS "pricePaise", capacity FROM slots WHERE id = $1', [
      id,
    ])
  )[0];

const seats = async (id: number) =>
  (await query<{ n: number }>('SELECT count(*)::int AS n FROM slot_seats WHERE slot_id = $1', [id]))[0]!.n;

describe('slot commands', () => {
  let id: number;

  it('creates a slot with its seats and records SlotCreated', async () => {
    const before = (await slotEvents()).length;

    const created = await inject('POST', '/api/admin/slots', {
      name: 'Sale banner',
      kind: 'paid',
      price: '1499.5',
      capacity: 3,
    });

    expect(created.statusCode).toBe(201);
    id = created.json().id;
    expect(created.json()).toEqual({ id, name: 'Sale banner', kind: 'paid', price: '1499.50', capacity: 3 });
    expect(await slotRow(id)).toEqual({ name: 'Sale banner', kind: 'paid', pricePaise: 149950, capacity: 3 });
    expect(await seats(id)).toBe(3);
    expect((await slotEvents()).slice(before)).toEqual([
      {
        type: 'SlotCreated',
        aggregateId: String(id),
        payload: { name: 'Sale banner', kind: 'paid', pricePaise: 149950, capacity: 3 },
      },
    ]);
  });

  it('changes what was sent and records SlotUpdated naming the fields', async () => {
    const before = (await slotEvents()).length;

    const updated = await inject('PUT', `/api/admin/slots/${id}`, { kind: 'free', capacity: 5 });

    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({ id, name: 'Sale banner', kind: 'free', price: null, capacity: 5 });
    expect(await slotRow(id)).toEqual({ name: 'Sale banner', kind: 'free', pricePaise: null, capacity: 5 });
    expect(await seats(id)).toBe(5);
    expect((await slotEvents()).slice(before)).toEqual([
      {
        type: 'SlotUpdated',
        aggregateId: String(id),
        payload: {
          name: 'Sale banner',
          kind: 'free',
          pricePaise: null,
          capacity: 5,
          changed: ['kind', 'pricePaise', 'capacity'],
        },
      },
    ]);
  });

  it('records nothing for a change that changes nothing', async () => {
    const before = await slotEvents();

    const same = await inject('PUT', `/api/admin/slots/${id}`, { name: 'Sale banner', capacity: 5 });

    expect(same.statusCode).toBe(200);
    expect(await slotEvents()).toEqual(before);
  });

  it('refuses changes and then writes neither row nor event', async () => {
    const before = await slotEvents();
    const row = await slotRow(id);
    const [{ slots }] = await query<{ slots: number }>('SELECT count(*)::int AS slots FROM slots');

    const paidWithoutPrice = await inject('PUT', `/api/admin/slots/${id}`, { kind: 'paid', capacity: 1 });
    const sameName = await inject('POST', '/api/admin/slots', {
      name: 'SALE BANNER',
      kind: 'free',
      capacity: 2,
    });
    const renamedOntoAnother = await inject('PUT', '/api/admin/slots/1', { name: 'sale banner' });
    const missing = await inject('PUT', '/api/admin/slots/999999', { capacity: 2 });
    const deleteMissing = await inject('DELETE', '/api/admin/slots/999999');

    expect(paidWithoutPrice.statusCode).toBe(409);
    expect(paidWithoutPrice.json().message).toBe(SLOT_MESSAGES.paidNeedsPrice);
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().errors).toEqual({ name: [SLOT_MESSAGES.nameTaken] });
    expect(renamedOntoAnother.statusCode).toBe(409);
    expect(missing.statusCode).toBe(404);
    expect(deleteMissing.statusCode).toBe(404);
    expect(await slotRow(id)).toEqual(row);
    expect(await seats(id)).toBe(5);
    expect(await query('SELECT count(*)::int AS slots FROM slots')).toEqual([{ slots }]);
    expect(await slotEvents()).toEqual(before);
  });

  it('keeps a slot a coupon names, recording nothing', async () => {
    const asked = (
      await inject('POST', '/api/admin/slots', { name: 'Asked for', kind: 'free', capacity: 1 })
    ).json();
    await merchantWithCoupon(market, { requestedSlotId: String(asked.id) });
    const before = await slotEvents();

    const refused = await inject('DELETE', `/api/admin/slots/${asked.id}`);

    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SLOT_MESSAGES.hasCoupons);
    expect(await slotRow(asked.id)).toBeDefined();
    expect(await slotEvents()).toEqual(before);
  });

  it('keeps a slot a feed source places its coupons in, recording nothing', async () => {
    const placed = (
      await inject('POST', '/api/admin/slots', { name: 'Network deals', kind: 'free', capacity: 1 })
    ).json();
    const source = await inject('POST', '/api/admin/feed-sources', {
      name: 'Network',
      format: 'admitad-json',
      url: 'https://api.admitad.example/coupons/',
      slotId: placed.id,
    });
    expect(source.statusCode).toBe(201);
    const before = await slotEvents();

    const refused = await inject('DELETE', `/api/admin/slots/${placed.id}`);

    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SLOT_MESSAGES.inUse);
    expect(await slotRow(placed.id)).toBeDefined();
    expect(await slotEvents()).toEqual(before);
  });

  it('deletes a slot nothing names, its seats with it, and records SlotDeleted', async () => {
    const before = (await slotEvents()).length;

    const deleted = await inject('DELETE', `/api/admin/slots/${id}`);

    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ id, name: 'Sale banner', kind: 'free', price: null, capacity: 5 });
    expect(await slotRow(id)).toBeUndefined();
    expect(await seats(id)).toBe(0);
    expect((await slotEvents()).slice(before)).toEqual([
      { type: 'SlotDeleted', aggregateId: String(id), payload: { name: 'Sale banner' } },
    ]);
  });
});
