import { ConflictException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type EntityManager, QueryFailedError } from 'typeorm';
import { MerchantScope } from '../../identity/merchant-scope.js';
import { conflictFromUniqueViolation } from '../../identity/unique-violations.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { CATEGORY_FORM } from '../../rules/storefront.js';
import type { CategoryChangesDto, CategoryFormDto } from '../dto/storefront.dto.js';
import { MerchantCategory } from '../entities/storefront.entities.js';
import {
  MerchantCategoryCreated,
  MerchantCategoryDeleted,
  MerchantCategoryUpdated,
} from '../events/storefront-events.js';

const NAME_TAKEN = {
  merchant_categories_name_key: { field: 'categoryName', message: CATEGORY_FORM.categoryName.taken },
};

const nameTaken = () =>
  new ConflictException({
    statusCode: 409,
    message: CATEGORY_FORM.categoryName.taken,
    errors: { categoryName: [CATEGORY_FORM.categoryName.taken] },
  });

/** Refuses a name the merchant already gives another of its categories, whatever its case. */
async function checkNameFree(manager: EntityManager, merchantId: number, name: string, exceptId = 0) {
  const found = await manager.query(
    'SELECT 1 FROM merchant_categories WHERE merchant_id = $1 AND lower(category_name) = lower($2) AND id <> $3',
    [merchantId, name, exceptId],
  );
  if (found.length > 0) throw nameTaken();
}

/** Runs a category change; the unique index settles two saves of one name at once (409 too). */
async function uniquely<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    return conflictFromUniqueViolation(error, CATEGORY_FORM.categoryName.taken, NAME_TAKEN);
  }
}

export class CreateMerchantCategory extends Command<{ categoryId: number }> {
  constructor(
    readonly merchantId: number,
    readonly form: CategoryFormDto,
  ) {
    super();
  }
}

@CommandHandler(CreateMerchantCategory)
export class CreateMerchantCategoryHandler implements ICommandHandler<CreateMerchantCategory> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ merchantId, form }: CreateMerchantCategory) {
    return uniquely(() => this.unitOfWork.run((tx) => createMerchantCategory(tx, merchantId, form)));
  }
}

/** CreateMerchantCategory's work in the caller's transaction (the command's, or the demo seed's). */
export async function createMerchantCategory(
  { manager, record }: Transaction,
  merchantId: number,
  form: CategoryFormDto,
): Promise<{ categoryId: number }> {
  await checkNameFree(manager, merchantId, form.categoryName);
  const category = await new MerchantScope(manager.getRepository(MerchantCategory), merchantId).create({
    categoryName: form.categoryName,
    description: form.description ?? '',
    isActive: form.isActive ?? true,
  });
  record(new MerchantCategoryCreated(String(category.id), { merchantId }));
  return { categoryId: category.id };
}

export class UpdateMerchantCategory extends Command<void> {
  constructor(
    readonly merchantId: number,
    readonly categoryId: number,
    readonly changes: CategoryChangesDto,
  ) {
    super();
  }
}

@CommandHandler(UpdateMerchantCategory)
export class UpdateMerchantCategoryHandler implements ICommandHandler<UpdateMerchantCategory> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ merchantId, categoryId, changes }: UpdateMerchantCategory) {
    return uniquely(() =>
      this.unitOfWork.run(async ({ manager, record }) => {
        if (changes.categoryName !== undefined) {
          await checkNameFree(manager, merchantId, changes.categoryName, categoryId);
        }
        await new MerchantScope(manager.getRepository(MerchantCategory), merchantId).update(categoryId, {
          ...(changes.categoryName !== undefined && { categoryName: changes.categoryName }),
          ...(changes.description !== undefined && { description: changes.description ?? '' }),
          ...(changes.isActive !== undefined && { isActive: changes.isActive }),
          updatedAt: new Date(),
        });
        record(new MerchantCategoryUpdated(String(categoryId), { merchantId }));
      }),
    );
  }
}

/** Deletes an empty category; one holding products can only be deactivated (409). */
export class DeleteMerchantCategory extends Command<void> {
  constructor(
    readonly merchantId: number,
    readonly categoryId: number,
  ) {
    super();
  }
}

const HAS_PRODUCTS = { statusCode: 409, message: CATEGORY_FORM.hasProducts };

@CommandHandler(DeleteMerchantCategory)
export class DeleteMerchantCategoryHandler implements ICommandHandler<DeleteMerchantCategory> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ merchantId, categoryId }: DeleteMerchantCategory) {
    try {
      await this.unitOfWork.run(async ({ manager, record }) => {
        const categories = new MerchantScope(manager.getRepository(MerchantCategory), merchantId);
        await categories.get(categoryId);
        // Locked, so a product cannot be filed under it between the check and the delete.
        await manager.query('SELECT 1 FROM merchant_categories WHERE id = $1 FOR UPDATE', [categoryId]);
        const used = await manager.query('SELECT 1 FROM products WHERE category_id = $1 LIMIT 1', [
          categoryId,
        ]);
        if (used.length > 0) throw new ConflictException(HAS_PRODUCTS);
        await categories.remove(categoryId);
        record(new MerchantCategoryDeleted(String(categoryId), { merchantId }));
      });
    } catch (error) {
      // The foreign key is the last word should a product arrive anyway.
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23503') {
        throw new ConflictException(HAS_PRODUCTS);
      }
      throw error;
    }
  }
}
