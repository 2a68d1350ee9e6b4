import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { categoryExists } from '../../coupons/queries/category-names.js';
import { StoreWithoutAccountCreated } from '../../identity/events/account-events.js';
import { insertStoreWithoutAccount, merchantExists } from '../../identity/queries/stores-without-account.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { FEED_ADVERTISER_MESSAGES as M } from '../../rules/feeds.js';
import { openStore } from '../../storefront/commands/store.js';
import { FeedAdvertiserMapped, FeedCategoryMapped } from '../events/feed-events.js';
import { lockFeedAdvertiser, mapFeedAdvertiser, setFeedCategory } from '../queries/advertisers.js';

const notFound = () => new NotFoundException({ statusCode: 404, message: M.notFound });

export class MapFeedAdvertiser extends Command<void> {
  constructor(
    readonly id: number,
    readonly merchantId: number,
  ) {
    super();
  }
}

/**
 * Maps a network's advertiser to an existing store (or to another one). Coupons already imported
 * stay with the store they went to; the advertiser's rows go to this one from the next run.
 */
@CommandHandler(MapFeedAdvertiser)
export class MapFeedAdvertiserHandler implements ICommandHandler<MapFeedAdvertiser> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id, merchantId }: MapFeedAdvertiser) {
    return this.unitOfWork.run((tx) => mapAdvertiser(tx, id, merchantId));
  }
}

/** MapFeedAdvertiser's work in the caller's transaction (the command's, or the demo seed's). */
export async function mapAdvertiser({ manager, record }: Transaction, id: number, merchantId: number) {
  const advertiser = await lockFeedAdvertiser(manager, id);
  if (!advertiser) throw notFound();
  if (!(await merchantExists(manager, merchantId))) {
    throw new BadRequestException({
      statusCode: 400,
      message: M.invalid,
      errors: { merchantId: [M.merchantUnknown] },
    });
  }
  // Mapping it to the store it has is no change: no event.
  if (advertiser.merchantId === merchantId) return;
  await mapFeedAdvertiser(manager, id, merchantId);
  record(
    new FeedAdvertiserMapped(String(id), {
      sourceId: advertiser.sourceId,
      advertiserId: advertiser.advertiserId,
      merchantId,
      previousMerchantId: advertiser.merchantId,
      storeCreated: false,
    }),
  );
}

export class CreateFeedAdvertiserStore extends Command<{ merchantId: number }> {
  constructor(
    readonly id: number,
    readonly store: { name: string; siteUrl: string; logo: Buffer | undefined },
  ) {
    super();
  }
}

/**
 * Creates a store without an account for an unmapped advertiser (its name, site and logo) and
 * maps the advertiser to it, in one transaction: the store is public from then on (its page is
 * built from the event) and the advertiser's rows flow on the next run.
 */
@CommandHandler(CreateFeedAdvertiserStore)
export class CreateFeedAdvertiserStoreHandler implements ICommandHandler<CreateFeedAdvertiserStore> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id, store }: CreateFeedAdvertiserStore) {
    return this.unitOfWork.run((tx) => createAdvertiserStore(tx, id, store));
  }
}

/** CreateFeedAdvertiserStore's work in the caller's transaction (the command's, or the demo seed's). */
export async function createAdvertiserStore(
  { manager, record }: Transaction,
  id: number,
  store: CreateFeedAdvertiserStore['store'],
) {
  const advertiser = await lockFeedAdvertiser(manager, id);
  if (!advertiser) throw notFound();
  if (advertiser.merchantId !== null) {
    throw new ConflictException({ statusCode: 409, message: M.alreadyMapped });
  }
  const { merchantId, slug } = await insertStoreWithoutAccount(manager, store);
  const opened = await openStore(manager, merchantId, store.name, store.logo);
  await mapFeedAdvertiser(manager, id, merchantId);
  record(
    new StoreWithoutAccountCreated(String(merchantId), {
      name: store.name,
      siteUrl: store.siteUrl,
      slug,
    }),
    opened,
    new FeedAdvertiserMapped(String(id), {
      sourceId: advertiser.sourceId,
      advertiserId: advertiser.advertiserId,
      merchantId,
      previousMerchantId: null,
      storeCreated: true,
    }),
  );
  return { merchantId };
}

export class MapFeedCategory extends Command<void> {
  constructor(
    readonly id: number,
    readonly categoryId: number | null,
  ) {
    super();
  }
}

/** Sets our category a network's category stands for (null: none); coupons follow on their next change. */
@CommandHandler(MapFeedCategory)
export class MapFeedCategoryHandler implements ICommandHandler<MapFeedCategory> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ id, categoryId }: MapFeedCategory) {
    return this.unitOfWork.run((tx) => mapCategory(tx, id, categoryId));
  }
}

/** MapFeedCategory's work in the caller's transaction (the command's, or the demo seed's). */
export async function mapCategory({ manager, record }: Transaction, id: number, categoryId: number | null) {
  if (categoryId !== null && !(await categoryExists(manager, categoryId))) {
    throw new BadRequestException({
      statusCode: 400,
      message: M.invalid,
      errors: { categoryId: [M.categoryUnknown] },
    });
  }
  const changed = await setFeedCategory(manager, id, categoryId);
  if (!changed) throw new NotFoundException({ statusCode: 404, message: M.categoryNotFound });
  if (changed.previous === categoryId) return;
  record(
    new FeedCategoryMapped(String(id), {
      sourceId: changed.sourceId,
      name: changed.name,
      categoryId,
      previousCategoryId: changed.previous,
    }),
  );
}
