import { createHmac } from 'node:crypto';
import type { Session } from './accounts.js';
import { approveHeldPurchase } from './claims.js';
import { approve, type Marketplace, merchantWithCoupon } from './marketplace.js';

/** A merchant with a live coupon that pays 100 % cashback: a purchase of ₹X earns ₹X. */
export interface CashbackShop {
  merchant: Session;
  couponId: number;
  secret: string;
}

export async function cashbackShop(market: Marketplace, overrides: Record<string, unknown> = {}) {
  const { merchant, couponId } = await merchantWithCoupon(market, overrides);
  const approved = await approve(market, couponId);
  if (approved.statusCode !== 200) throw new Error(`coupon not approved: ${approved.body}`);
  const rate = await market.api.http.inject({
    method: 'PUT',
    url: `/api/admin/cashback-rates/${merchant.id}`,
    headers: market.admin,
    payload: { base: { percent: '100' } },
  });
  if (rate.statusCode !== 200) throw new Error(`rate not set: ${rate.body}`);
  const secret = (
    await market.api.http.inject({
      method: 'GET',
      url: '/api/merchant/postback-secret',
      headers: merchant.bearer,
    })
  ).json().secret as string;
  return { merchant, couponId, secret } satisfies CashbackShop;
}

/**
 * A cashback shop whose merchant has saved its store (name and address), as the claims and the
 * shopper's pages name it.
 */
export async function cashbackShopWithStore(
  market: Marketplace,
  title: string,
  store: { name: string; address: string },
): Promise<CashbackShop> {
  const shop = await cashbackShop(market, { title });
  await market.api.dataSource.query(
    'INSERT INTO merchant_stores (merchant_id, store_name, store_address) VALUES ($1, $2, $3)',
    [shop.merchant.id, store.name, store.address],
  );
  return shop;
}

let reference = 0;

/**
 * A purchase at the shop with the shopper's referral code, reported by the shop's signed postback
 * as production receives it. Returns the postback's answer.
 */
export async function reportPurchase(
  market: Marketplace,
  shop: CashbackShop,
  referralCode: string,
  rupees: string,
) {
  reference += 1;
  const body = JSON.stringify({
    purchaseReference: `PURCHASE-${process.pid}-${Date.now()}-${reference}`,
    couponId: shop.couponId,
    referralCode,
    purchaseType: 'online',
    purchaseAmount: rupees,
  });
  return market.api.http.inject({
    method: 'POST',
    url: '/api/postbacks/purchases',
    headers: {
      'content-type': 'application/json',
      'x-signature': `sha256=${createHmac('sha256', shop.secret).update(body).digest('hex')}`,
    },
    payload: body,
  });
}

/**
 * Cashback of `rupees` for the shopper, as it comes in production: a purchase reported by the
 * shop's signed postback (with the shopper's referral code, so it waits in the claims queue),
 * approved there and confirmed by an admin. Returns the earning's id.
 */
export async function confirmedCashback(
  market: Marketplace,
  shop: CashbackShop,
  shopper: Session,
  rupees: string,
  { confirm = true } = {},
): Promise<number> {
  const referralCode = (
    await market.api.http.inject({ method: 'GET', url: '/api/me/referral', headers: shopper.bearer })
  ).json().code;
  const recorded = await reportPurchase(market, shop, referralCode, rupees);
  if (recorded.statusCode !== 201) throw new Error(`purchase not recorded: ${recorded.body}`);
  const earningId = recorded.json().id as number;
  // Reported without a click, the purchase waits in the claims queue until an admin approves it.
  await approveHeldPurchase(market, shopper.id, earningId);
  if (confirm) {
    const confirmed = await market.api.http.inject({
      method: 'POST',
      url: `/api/admin/cashbacks/${earningId}/confirm`,
      headers: market.admin,
    });
    if (confirmed.statusCode !== 200) throw new Error(`cashback not confirmed: ${confirmed.body}`);
  }
  return earningId;
}
