import type { EntityManager } from 'typeorm';

/**
 * Moves a demo coupon's approval `hoursAgo` into the past, after ApproveCoupon's work made it live
 * (its event is the command's): the demo's offers were approved in turns over the past days, so
 * the newest on the lists come from different stores. Not in production.
 */
export async function backdateDemoApproval(
  manager: Pick<EntityManager, 'query'>,
  couponId: number,
  hoursAgo: number,
): Promise<void> {
  await manager.query('UPDATE coupons SET approved_at = now() - make_interval(hours => $2) WHERE id = $1', [
    couponId,
    hoursAgo,
  ]);
}
