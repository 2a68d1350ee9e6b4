import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { merchantHasCoupons } from '../../coupons/queries/coupon-status.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { FEED_ADVERTISER_MESSAGES as M } from '../../rules/feeds.js';
import { merchantHasStorefront } from '../../storefront/queries/store-identity.js';
import { StoreClaimed } from '../events/account-events.js';
import { lockClaim, moveAccountToStore } from '../queries/stores-without-account.js';

export class ClaimStore extends Command<void> {
  constructor(
    readonly storeId: number,
    readonly merchantId: number,
  ) {
    super();
  }
}

/**
 * A merchant who registered takes over a store without an account (one made for a network's
 * advertiser), linked by an admin who checked who they are: the account moves onto the store,
 * which keeps its page, coupons and advertisers. Only an account with its email confirmed (the
 * confirmation link names the old row, and an unconfirmed store is not public) and nothing of its
 * own (no coupon, store, category or product) may claim, so nothing is left behind on the
 * emptied row.
 */
@CommandHandler(ClaimStore)
export class ClaimStoreHandler implements ICommandHandler<ClaimStore> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ storeId, merchantId }: ClaimStore) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const locked = await lockClaim(manager, storeId, merchantId);
      const store = locked.get(storeId);
      if (!store) throw new NotFoundException({ statusCode: 404, message: 'Store not found.' });
      if (store.hasAccount) throw new ConflictException({ statusCode: 409, message: M.claimNotAccountless });
      const claimant = locked.get(merchantId);
      if (
        !claimant?.hasAccount ||
        !claimant.emailConfirmed ||
        (await merchantHasCoupons(manager, merchantId)) ||
        (await merchantHasStorefront(manager, merchantId))
      ) {
        throw new BadRequestException({
          statusCode: 400,
          message: M.claimMerchantInvalid,
          errors: { merchantId: [M.claimMerchantInvalid] },
        });
      }
      await moveAccountToStore(manager, storeId, merchantId);
      record(new StoreClaimed(String(storeId), { fromMerchantId: merchantId }));
    });
  }
}
