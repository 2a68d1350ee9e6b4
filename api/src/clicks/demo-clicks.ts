import type { Transaction } from '../infrastructure/events/unit-of-work.js';
import { newClickId } from './click-ids.js';
import { ClickedOut } from './events/click-events.js';
import { ensureClickPartitions, INSERT_CLICK } from './queries/clicks.js';

/** A demo shopper's click-out, as the click-out command records it, made `daysAgo`. */
export interface DemoClick {
  couponId: number;
  merchantId: number;
  userId: number;
  daysAgo: number;
}

/**
 * Records a signed-in shopper's click-out in the past with its event, so the demo can show claims
 * for purchases the store never reported (a claim needs a click a day old at least). No client
 * address is kept: the demo's clicks came from nowhere. Answers the click's id. Not in production.
 */
export async function addDemoClick({ manager, record }: Transaction, click: DemoClick): Promise<string> {
  const clickedAt = new Date(Date.now() - click.daysAgo * 86_400_000);
  await ensureClickPartitions(manager, clickedAt);
  const clickId = newClickId(clickedAt);
  await manager.query(INSERT_CLICK, [
    clickId,
    click.couponId,
    click.merchantId,
    click.userId,
    clickedAt,
    null,
  ]);
  record(
    new ClickedOut(clickId, {
      couponId: click.couponId,
      merchantId: click.merchantId,
      userId: click.userId,
      counted: true,
    }),
  );
  return clickId;
}
