import { NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { StoreVisibilityChanged } from '../../identity/events/account-events.js';
import { setStoreHidden } from '../../identity/store-visibility.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { STORE_VISIBILITY } from '../../rules/storefront.js';

export class SetStoreVisibility extends Command<{ merchantId: number; hidden: boolean }> {
  constructor(
    readonly merchantId: number,
    readonly hidden: boolean,
  ) {
    super();
  }
}

/**
 * An admin hides (or shows again) a merchant's store page and coupons. The projections take them
 * off the public site on the event; nothing of the merchant's is deleted.
 */
@CommandHandler(SetStoreVisibility)
export class SetStoreVisibilityHandler implements ICommandHandler<SetStoreVisibility> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ merchantId, hidden }: SetStoreVisibility) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      if (!(await setStoreHidden(manager, merchantId, hidden)))
        throw new NotFoundException({ statusCode: 404, message: STORE_VISIBILITY.notFound });
      record(new StoreVisibilityChanged(String(merchantId), { hidden }));
      return { merchantId, hidden };
    });
  }
}
