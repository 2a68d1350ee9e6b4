import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../events/unit-of-work.js';
import { newClickId } from '../click-ids.js';
import { ClickedOut } from '../events/click-events.js';
import { merchantLink } from '../merchant-link.js';
import { CLICK_OUT_TARGET, type ClickOutTargetRow, INSERT_CLICK } from '../queries/clicks.js';

/** Where the visitor goes and the click that says so; null when the coupon cannot be followed. */
export type ClickOutResult = { clickId: string; location: string } | null;

export class ClickOut extends Command<ClickOutResult> {
  constructor(
    readonly couponId: number,
    /** The signed-in shopper, credited for a purchase the merchant reports with this click. */
    readonly userId: number | null,
  ) {
    super();
  }
}

/**
 * Records a click on a live coupon and answers the merchant's address carrying its id. The only
 * possible target is the URL stored with the coupon or its merchant.
 */
@CommandHandler(ClickOut)
export class ClickOutHandler implements ICommandHandler<ClickOut> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ couponId, userId }: ClickOut): Promise<ClickOutResult> {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const [coupon]: ClickOutTargetRow[] = await manager.query(CLICK_OUT_TARGET, [couponId]);
      if (!coupon) return null;
      const clickedAt = new Date();
      const clickId = newClickId(clickedAt);
      const location = merchantLink(coupon.url, coupon.subIdParam, clickId);
      if (!location) return null;
      await manager.query(INSERT_CLICK, [clickId, coupon.couponId, coupon.merchantId, userId, clickedAt]);
      record(new ClickedOut(clickId, { couponId: coupon.couponId, merchantId: coupon.merchantId, userId }));
      return { clickId, location };
    });
  }
}
