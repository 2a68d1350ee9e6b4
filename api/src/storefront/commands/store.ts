import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { storeImage } from '../../media/media.js';
import type { STORE_IMAGE_FIELDS } from '../../rules/storefront.js';
import type { StoreFormDto } from '../dto/storefront.dto.js';
import { MerchantStore } from '../entities/storefront.entities.js';
import { StoreSaved } from '../events/storefront-events.js';

/** New bytes for an image, `null` to remove it; a field left out keeps the image it has. */
export type StoreImages = Partial<Record<(typeof STORE_IMAGE_FIELDS)[number], Buffer | null>>;

const IMAGE_COLUMNS = {
  merchantLogo: 'merchantLogoId',
  landingBanner: 'landingBannerId',
  heroBannerImage: 'heroBannerImageId',
} as const;

/** Creates the merchant's store on its first save, changes it afterwards (spec 'Save store'). */
export class SaveStore extends Command<void> {
  constructor(
    readonly merchantId: number,
    readonly form: StoreFormDto,
    readonly images: StoreImages,
  ) {
    super();
  }
}

@CommandHandler(SaveStore)
export class SaveStoreHandler implements ICommandHandler<SaveStore> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute(command: SaveStore) {
    return this.unitOfWork.run((tx) => saveStore(tx, command));
  }
}

/** SaveStore's work in the caller's transaction (the command's, or the demo seed's). */
export async function saveStore({ manager, record }: Transaction, { merchantId, form, images }: SaveStore) {
  // One row per merchant: two first saves at once meet on the unique key, then on the lock.
  await manager.query(
    'INSERT INTO merchant_stores (merchant_id, store_name) VALUES ($1, $2) ON CONFLICT (merchant_id) DO NOTHING',
    [merchantId, form.storeName],
  );
  const store = await manager.findOneOrFail(MerchantStore, {
    where: { merchantId },
    lock: { mode: 'pessimistic_write' },
  });
  for (const [field, bytes] of Object.entries(images)) {
    const column = IMAGE_COLUMNS[field as keyof typeof IMAGE_COLUMNS];
    store[column] = bytes === null ? null : bytes ? await storeImage(manager, bytes, field) : store[column];
  }
  Object.assign(store, {
    storeName: form.storeName,
    ...(form.storeAddress !== undefined && { storeAddress: form.storeAddress ?? '' }),
    ...(form.tagline !== undefined && { tagline: form.tagline ?? '' }),
    ...(form.aboutDescription !== undefined && { aboutDescription: form.aboutDescription ?? '' }),
    ...(form.isActive !== undefined && { isActive: form.isActive }),
    updatedDate: new Date(),
  });
  await manager.save(store);
  record(new StoreSaved(String(merchantId), { merchantId }));
}

/**
 * Opens the store of a merchant that has none (a store without an account, made by an admin): its
 * name and logo, active. Part of the caller's command: it records the event returned, so the
 * store's public page is built.
 */
export async function openStore(
  manager: EntityManager,
  merchantId: number,
  storeName: string,
  logo: Buffer | undefined,
): Promise<StoreSaved> {
  const logoId = logo ? await storeImage(manager, logo, 'merchantLogo') : null;
  await manager.query(
    'INSERT INTO merchant_stores (merchant_id, store_name, merchant_logo_id) VALUES ($1, $2, $3)',
    [merchantId, storeName, logoId],
  );
  return new StoreSaved(String(merchantId), { merchantId });
}
