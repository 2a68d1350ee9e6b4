import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CouponApproved, CouponRevealed, type PublishedEvent } from '@offers/api/events';
import { STORE_VISIBILITY } from '@offers/api/rules';
import { CouponListingProjection, StorePageProjection } from '@offers/workers/consumers';
import type { EntityManager } from 'typeorm';
import { confirmMerchantEmail, registerAndSignInMerchant, type Session } from '../support/accounts.js';
import {
  approve,
  type Marketplace,
  startMarketplace,
  submitCoupon,
  untilEventsProcessed,
  untilListed,
} from '../support/marketplace.js';
import {
  approveProduct,
  createCategory,
  inject,
  saveStore,
  submitProduct,
  untilOnPage,
} from '../support/storefront.js';
import { eventually } from '../support/test-environment.js';

/** A merchant's coupons and store page are public only once it confirmed its email, and not while an admin hides them. */
let market: Marketplace;

beforeAll(async () => {
  market = await startMarketplace('merchant visibility', {
    consumers: [CouponListingProjection, StorePageProjection],
  });
});

afterAll(async () => {
  await market?.close();
});

/** A merchant with an approved coupon and a store page with one approved product. */
async function merchantWithShop(confirmEmail: boolean) {
  const { registration, session } = await registerAndSignInMerchant(market.api.baseUrl, {}, { confirmEmail });
  const couponId = await submitCoupon(market, session);
  expect((await approve(market, couponId)).statusCode).toBe(200);
  await saveStore(market, session);
  const productId = await submitProduct(market, session, await createCategory(market, session, 'Serums'));
  expect((await approveProduct(market, productId)).statusCode).toBe(200);
  await untilEventsProcessed(market);
  return { registration, session, couponId, productId };
}

const reveal = (couponId: number) => inject(market, 'POST', `/api/coupons/${couponId}/reveal`);
const storePageStatus = async (merchant: Session) =>
  (await inject(market, 'GET', `/api/stores/${merchant.id}`)).statusCode;

describe('a merchant that has not confirmed its email', () => {
  it('has no public coupons or store page until it does', async () => {
    const { registration, session, couponId, productId } = await merchantWithShop(false);

    expect(await storePageStatus(session)).toBe(404);
    expect((await reveal(couponId)).statusCode).toBe(404);
    const [{ listed }] = await market.api.dataSource.query(
      'SELECT count(*)::int AS listed FROM coupon_listings WHERE coupon_id = $1',
      [couponId],
    );
    expect(listed).toBe(0);

    await confirmMerchantEmail(market.api.baseUrl, session.id, registration.email);

    await untilListed(market, couponId);
    await untilOnPage(market, session.id, productId);
    expect((await reveal(couponId)).statusCode).toBe(200);
  });
});

describe('an admin', () => {
  it('hides a store page and its coupons, and shows them again', async () => {
    const { session, couponId, productId } = await merchantWithShop(true);
    await untilListed(market, couponId);
    await untilOnPage(market, session.id, productId);
    const hide = (hidden: unknown, headers = market.admin) =>
      inject(market, 'PUT', `/api/admin/stores/${session.id}`, headers, { hidden });

    const hidden = await hide(true);
    expect(hidden.statusCode).toBe(200);
    expect(hidden.json()).toEqual({ merchantId: session.id, hidden: true });
    await untilListed(market, couponId, false);
    await eventually(async () => (await storePageStatus(session)) === 404, 'the page to go');
    expect((await reveal(couponId)).statusCode).toBe(404);

    expect((await hide(false)).statusCode).toBe(200);
    await untilListed(market, couponId);
    await untilOnPage(market, session.id, productId);
  });

  it('is the only one who may, with a clear answer for bad input', async () => {
    const { session } = await registerAndSignInMerchant(market.api.baseUrl);
    const put = (url: string, headers: Record<string, string>, payload: unknown) =>
      inject(market, 'PUT', url, headers, payload);

    expect((await put(`/api/admin/stores/${session.id}`, session.bearer, { hidden: true })).statusCode).toBe(
      403,
    );
    const invalid = await put(`/api/admin/stores/${session.id}`, market.admin, { hidden: 'maybe' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toEqual({ hidden: [STORE_VISIBILITY.hidden] });
    const unknown = await put('/api/admin/stores/999999', market.admin, { hidden: true });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(STORE_VISIBILITY.notFound);
  });
});

describe('the coupon listings', () => {
  it('read the stores of a lot once, a reveal between its coupons or not, and list only public stores', async () => {
    const shown = await merchantWithShop(true);
    const hidden = await merchantWithShop(true);
    const event = (type: string, couponId: number, merchantId: number): PublishedEvent => ({
      id: randomUUID(),
      position: '0',
      type,
      aggregateType: 'Coupon',
      aggregateId: String(couponId),
      payload: { merchantId },
      occurredAt: new Date().toISOString(),
    });
    // Undone at the end: the lot is applied here only to see what it reads.
    const runner = market.api.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await runner.query('UPDATE merchants SET store_hidden = true WHERE id = $1', [hidden.session.id]);
      const statements: string[] = [];
      // The database itself answers; the statements it is sent are noted on the way.
      const noting = {
        query: (sql: string, parameters?: unknown[]) => {
          statements.push(sql);
          return runner.query(sql, parameters);
        },
      } as unknown as EntityManager;
      await new CouponListingProjection().handleLot(
        [
          event(CouponApproved.type, shown.couponId, shown.session.id),
          event(CouponRevealed.type, shown.couponId, shown.session.id),
          event(CouponApproved.type, hidden.couponId, hidden.session.id),
        ],
        noting,
      );
      expect(statements.filter((sql) => /\bFROM merchants\b/.test(sql))).toHaveLength(1);
      const listed = await runner.query(
        'SELECT coupon_id AS "couponId" FROM coupon_listings WHERE coupon_id = ANY($1::int[])',
        [[shown.couponId, hidden.couponId]],
      );
      expect(listed).toEqual([{ couponId: shown.couponId }]);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
