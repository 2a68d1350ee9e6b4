import { BadRequestException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { MerchantScope } from '../../identity/merchant-scope.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { INVALID_INPUT_MESSAGE } from '../../infrastructure/http/validation.js';
import { rupeesToPaise } from '../../rules/money.js';
import { PRODUCT_FORM, type ProductImageSize } from '../../rules/storefront.js';
import type { ProductChangesDto, StoreProductFormDto } from '../dto/storefront.dto.js';
import { Product } from '../entities/storefront.entities.js';
import { ProductDeleted, ProductSubmitted, ProductUpdated } from '../events/storefront-events.js';
import {
  type PreparedProductImages,
  type ProductImageBytes,
  prepareProductImages,
  storeProductImages,
} from '../product-images.js';

/** A product form as both uploads give it; the simple one has no category, brand or description. */
export type ProductForm = Omit<StoreProductFormDto, 'categoryId'> & { categoryId?: number };

export interface ProductImagesInput {
  bytes: ProductImageBytes;
  /** The form field each size came in, for error messages. */
  fieldOf: (size: ProductImageSize) => string;
}

/** A category of this merchant, or a 400 on the field: another merchant's shelf is not offered. */
async function checkOwnCategory(manager: EntityManager, merchantId: number, categoryId: number) {
  const found = await manager.query('SELECT 1 FROM merchant_categories WHERE id = $1 AND merchant_id = $2', [
    categoryId,
    merchantId,
  ]);
  if (found.length === 0) {
    throw new BadRequestException({
      statusCode: 400,
      message: INVALID_INPUT_MESSAGE,
      errors: { categoryId: [PRODUCT_FORM.categoryId.notYours] },
    });
  }
}

/** A new product, pending review (spec "Product upload", simple and store). */
export class SubmitProduct extends Command<{ productId: number }> {
  constructor(
    readonly merchantId: number,
    readonly form: ProductForm,
    readonly images: ProductImagesInput,
  ) {
    super();
  }
}

@CommandHandler(SubmitProduct)
export class SubmitProductHandler implements ICommandHandler<SubmitProduct> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ merchantId, form, images }: SubmitProduct) {
    const prepared = await prepareProductImages(images.bytes, images.fieldOf);
    return this.unitOfWork.run((tx) => submitProduct(tx, merchantId, form, prepared));
  }
}

/**
 * SubmitProduct's work in the caller's transaction (the command's, or the demo seed's), with the
 * images prepared before it.
 */
export async function submitProduct(
  { manager, record }: Transaction,
  merchantId: number,
  form: ProductForm,
  prepared: PreparedProductImages | undefined,
): Promise<{ productId: number }> {
  if (form.categoryId !== undefined) await checkOwnCategory(manager, merchantId, form.categoryId);
  const ids = await storeProductImages(manager, prepared);
  const product = await new MerchantScope(manager.getRepository(Product), merchantId).create({
    categoryId: form.categoryId ?? null,
    productName: form.productName,
    brand: form.brand ?? '',
    description: form.description ?? '',
    pricePaise: rupeesToPaise(form.price),
    merchantUrl: form.merchantUrl ?? null,
    imageSmallId: ids?.small ?? null,
    imageMediumId: ids?.medium ?? null,
    imageLargeId: ids?.large ?? null,
    status: 'pending',
  });
  record(new ProductSubmitted(String(product.id), { merchantId, productName: product.productName }));
  return { productId: product.id };
}

/**
 * Changes a product. Any real change sends it back to review (pending, off the store page until
 * approved again); a save that changes nothing leaves it as it is.
 */
export class UpdateProduct extends Command<void> {
  constructor(
    readonly merchantId: number,
    readonly productId: number,
    readonly changes: ProductChangesDto,
    readonly images: ProductImagesInput,
  ) {
    super();
  }
}

@CommandHandler(UpdateProduct)
export class UpdateProductHandler implements ICommandHandler<UpdateProduct> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ merchantId, productId, changes, images }: UpdateProduct) {
    const prepared = await prepareProductImages(images.bytes, images.fieldOf);
    return this.unitOfWork.run(async ({ manager, record }) => {
      const products = new MerchantScope(manager.getRepository(Product), merchantId);
      // Locked like a review locks it: an edit and a decision on the same product take turns.
      await manager.query('SELECT 1 FROM products WHERE id = $1 AND merchant_id = $2 FOR UPDATE', [
        productId,
        merchantId,
      ]);
      const product = await products.get(productId);
      if (changes.categoryId !== undefined && changes.categoryId !== null) {
        await checkOwnCategory(manager, merchantId, changes.categoryId);
      }
      const ids = await storeProductImages(manager, prepared);
      const next: Partial<Product> = {
        ...(changes.productName !== undefined && { productName: changes.productName }),
        ...(changes.price !== undefined && { pricePaise: rupeesToPaise(changes.price) }),
        ...(changes.merchantUrl !== undefined && { merchantUrl: changes.merchantUrl || null }),
        ...(changes.categoryId !== undefined && { categoryId: changes.categoryId }),
        ...(changes.brand !== undefined && { brand: changes.brand ?? '' }),
        ...(changes.description !== undefined && { description: changes.description ?? '' }),
        ...(ids && { imageSmallId: ids.small, imageMediumId: ids.medium, imageLargeId: ids.large }),
      };
      const changed = Object.entries(next).some(([key, value]) => product[key as keyof Product] !== value);
      if (!changed) return;
      await products.update(productId, {
        ...next,
        status: 'pending',
        rejectionReason: null,
        advisedChanges: null,
        reviewedAt: null,
        updatedAt: new Date(),
      });
      record(new ProductUpdated(String(productId), { merchantId }));
    });
  }
}

export class DeleteProduct extends Command<void> {
  constructor(
    readonly merchantId: number,
    readonly productId: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteProduct)
export class DeleteProductHandler implements ICommandHandler<DeleteProduct> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ merchantId, productId }: DeleteProduct) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      await new MerchantScope(manager.getRepository(Product), merchantId).remove(productId);
      record(new ProductDeleted(String(productId), { merchantId }));
    });
  }
}
