import { newClickId } from '@offers/api/read-models';
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

const DAY_MS = 86_400_000;

/**
 * A real click-out of a shopper (its `headers`: bearer and `x-forwarded-for`) to the coupon, whose
 * row, with the digest of its address, is then copied `daysAgo` days into the past under a click id
 * of that time: claims are for click-outs of days ago. Answers the click id.
 */
export async function clickOutDaysAgo(
  market: Marketplace,
  couponId: number,
  headers: Record<string, string>,
  daysAgo: number,
): Promise<string> {
  const answer = await market.api.http.inject({ method: 'GET', url: `/api/out/${couponId}`, headers });
  if (answer.statusCode !== 302) throw new Error(`click-out answered ${answer.statusCode}: ${answer.body}`);
  const clickId = new URL(String(answer.headers.location)).searchParams.get('subid')!;
  if (daysAgo === 0) return clickId;
  const at = new Date(Date.now() - daysAgo * DAY_MS);
  const aged = newClickId(at);
  await market.api.dataSource.query(
    `INSERT INTO clicks (id, coupon_id, merchant_id, user_id, clicked_at, client_address_key)
     SELECT $2, coupon_id, merchant_id, user_id, $3, client_address_key FROM clicks WHERE id = $1`,
    [clickId, aged, at],
  );
  await market.api.dataSource.query('DELETE FROM clicks WHERE id = $1', [clickId]);
  return aged;
}
