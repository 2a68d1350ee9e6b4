import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { feedCouponTarget } from '../../feeds/queries/feed-coupons.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { newClickId } from '../click-ids.js';
import { ClickWindow } from '../click-window.js';
import { clientAddressKey } from '../client-address-key.js';
import { ClickedOut } from '../events/click-events.js';
import { merchantLink } from '../merchant-link.js';
import { clickOutTarget, INSERT_CLICK } from '../queries/clicks.js';

/** Where the visitor goes and the click that says so; null when the coupon cannot be followed. */
export type ClickOutResult = { clickId: string; location: string } | null;

export class ClickOut extends Command<ClickOutResult> {
  constructor(
    readonly couponId: number,
    /** The signed-in shopper, credited for a purchase the merchant reports with this click. */
    readonly userId: number | null,
    /** The client address, as the trusted proxies give it. */
    readonly clientAddress: string,
  ) {
    super();
  }
}

/**
 * Answers the merchant's address carrying a click id, for a live coupon. The only possible targets
 * are the URLs stored with the coupon or its merchant, or for a coupon of an affiliate network's
 * feed its tracking link, with the click id in the feed source's sub-id parameter: the network
 * sends the click id back in its postback.
 *
 * A signed-in shopper's click-out is always recorded: it carries their cashback. An anonymous one
 * is recorded once per address and coupon in the click window; a later one goes to the store with
 * the first one's id and writes nothing. Whoever clicks, the analytics count an address's clicks
 * on a coupon once per window (the event says whether it counts).
 */
@CommandHandler(ClickOut)
export class ClickOutHandler implements ICommandHandler<ClickOut> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly window: ClickWindow,
    private readonly environment: Environment,
  ) {}

  async execute({ couponId, userId, clientAddress }: ClickOut): Promise<ClickOutResult> {
    let claimed: string | null = null;
    try {
      return await this.unitOfWork.run(async ({ manager, record }) => {
        const coupon = await clickOutTarget(manager, couponId);
        if (!coupon) return null;
        const clickedAt = new Date();
        const clickId = newClickId(clickedAt);
        const network = await feedCouponTarget(manager, coupon.couponId);
        // A tracking link that is not an http(s) address is no target: the store's own URL is.
        const { url, subIdParam } =
          network && merchantLink(network.trackingUrl, network.subIdParam, clickId)
            ? { url: network.trackingUrl, subIdParam: network.subIdParam }
            : coupon;
        const linkOf = (id: string) => merchantLink(url, subIdParam, id);
        if (!linkOf(clickId)) return null;
        const claim = await this.window.claim(clientAddress, coupon.couponId, clickId);
        if (claim.first) claimed = clickId;
        if (!claim.first && userId === null) {
          return { clickId: claim.clickId, location: linkOf(claim.clickId)! };
        }
        await manager.query(INSERT_CLICK, [
          clickId,
          coupon.couponId,
          coupon.merchantId,
          userId,
          clickedAt,
          clientAddressKey(this.environment.SESSION_SECRET, clientAddress),
        ]);
        record(
          new ClickedOut(clickId, {
            couponId: coupon.couponId,
            merchantId: coupon.merchantId,
            userId,
            counted: claim.first,
          }),
        );
        return { clickId, location: linkOf(clickId)! };
      });
    } catch (error) {
      if (claimed) await this.window.release(clientAddress, couponId, claimed);
      throw error;
    }
  }
}
