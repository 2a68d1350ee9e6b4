import type { Marketplace } from './marketplace.js';

/**
 * Approves, as an admin in the missing-cashback queue, a purchase the store reported without a
 * click (or above its cap): until then it is not the shopper's cashback and cannot be confirmed.
 */
export async function approveHeldPurchase(market: Marketplace, shopperId: number, earningId: number) {
  const filter = encodeURIComponent(JSON.stringify({ userId: shopperId, state: 'open' }));
  const queued = await market.api.http.inject({
    method: 'GET',
    url: `/api/admin/missing-cashback-claims?filter=${filter}&range=[0,999]`,
    headers: market.admin,
  });
  const item = (queued.json() as Array<{ id: number; earningId: number | null }>).find(
    (one) => one.earningId === earningId,
  );
  if (!item) throw new Error(`purchase ${earningId} not queued: ${queued.body}`);
  const approved = await market.api.http.inject({
    method: 'POST',
    url: `/api/admin/missing-cashback-claims/${item.id}/approve`,
    headers: market.admin,
  });
  if (approved.statusCode !== 200) throw new Error(`purchase not approved: ${approved.body}`);
}
