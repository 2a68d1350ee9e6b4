import { ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { PRODUCT_FORM, PRODUCT_REVIEW } from '../../rules/storefront.js';
import { Product } from '../entities/storefront.entities.js';
import { ProductApproved, ProductRejected } from '../events/storefront-events.js';

/**
 * Locks the product for review; only a pending one can be reviewed. Two admins deciding at once
 * queue on the lock, and the second finds it decided (409).
 */
async function pendingProduct(manager: EntityManager, productId: number): Promise<Product> {
  const product = await manager.findOne(Product, {
    where: { id: productId },
    lock: { mode: 'pessimistic_write' },
  });
  if (!product) throw new NotFoundException({ statusCode: 404, message: PRODUCT_FORM.notFound });
  if (product.status !== 'pending') {
    throw new ConflictException({ statusCode: 409, message: PRODUCT_REVIEW.notPending(product.status) });
  }
  return product;
}

export class ApproveProduct extends Command<void> {
  constructor(readonly productId: number) {
    super();
  }
}

@CommandHandler(ApproveProduct)
export class ApproveProductHandler implements ICommandHandler<ApproveProduct> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ productId }: ApproveProduct) {
    return this.unitOfWork.run((tx) => approveProduct(tx, productId));
  }
}

/** ApproveProduct's work in the caller's transaction (the command's, or the demo seed's). */
export async function approveProduct({ manager, record }: Transaction, productId: number): Promise<void> {
  const product = await pendingProduct(manager, productId);
  const now = new Date();
  await manager.update(Product, productId, { status: 'approved', reviewedAt: now, updatedAt: now });
  record(
    new ProductApproved(String(productId), {
      merchantId: product.merchantId,
      productName: product.productName,
    }),
  );
}

export class RejectProduct extends Command<void> {
  constructor(
    readonly productId: number,
    readonly reason: string,
    readonly advisedChanges: string,
  ) {
    super();
  }
}

@CommandHandler(RejectProduct)
export class RejectProductHandler implements ICommandHandler<RejectProduct> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ productId, reason, advisedChanges }: RejectProduct) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const product = await pendingProduct(manager, productId);
      const now = new Date();
      await manager.update(Product, productId, {
        status: 'rejected',
        rejectionReason: reason,
        advisedChanges,
        reviewedAt: now,
        updatedAt: now,
      });
      record(
        new ProductRejected(String(productId), {
          merchantId: product.merchantId,
          productName: product.productName,
          reason,
          advisedChanges,
        }),
      );
    });
  }
}
