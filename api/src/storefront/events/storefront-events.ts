import { DomainEvent } from '../../infrastructure/events/domain-event.js';

/** Notified (at commit) by the store page projection whenever a page changes or goes. */
export const STORE_PAGES_CHANNEL = 'store_pages_changed';

/** The store's aggregate id is its merchant's id: one store per merchant. */
export class StoreSaved extends DomainEvent<{ merchantId: number }> {
  static readonly type = 'StoreSaved';
  readonly type = StoreSaved.type;
  readonly aggregateType = 'Store';
}

abstract class MerchantCategoryEvent extends DomainEvent<{ merchantId: number }> {
  readonly aggregateType = 'MerchantCategory';
}

export class MerchantCategoryCreated extends MerchantCategoryEvent {
  static readonly type = 'MerchantCategoryCreated';
  readonly type = MerchantCategoryCreated.type;
}

export class MerchantCategoryUpdated extends MerchantCategoryEvent {
  static readonly type = 'MerchantCategoryUpdated';
  readonly type = MerchantCategoryUpdated.type;
}

export class MerchantCategoryDeleted extends MerchantCategoryEvent {
  static readonly type = 'MerchantCategoryDeleted';
  readonly type = MerchantCategoryDeleted.type;
}

abstract class ProductEvent<P extends { merchantId: number }> extends DomainEvent<P> {
  readonly aggregateType = 'Product';
}

export class ProductSubmitted extends ProductEvent<{ merchantId: number; productName: string }> {
  static readonly type = 'ProductSubmitted';
  readonly type = ProductSubmitted.type;
}

export class ProductUpdated extends ProductEvent<{ merchantId: number }> {
  static readonly type = 'ProductUpdated';
  readonly type = ProductUpdated.type;
}

export class ProductDeleted extends ProductEvent<{ merchantId: number }> {
  static readonly type = 'ProductDeleted';
  readonly type = ProductDeleted.type;
}

export class ProductApproved extends ProductEvent<{ merchantId: number; productName: string }> {
  static readonly type = 'ProductApproved';
  readonly type = ProductApproved.type;
}

export class ProductRejected extends ProductEvent<{
  merchantId: number;
  productName: string;
  reason: string;
  advisedChanges: string;
}> {
  static readonly type = 'ProductRejected';
  readonly type = ProductRejected.type;
}

/**
 * Every event that can change what a store page shows; each names its merchant. A submission or
 * a rejection cannot (the product is pending before and not shown after), so neither costs a
 * rebuild of the page.
 */
export const STORE_PAGE_EVENTS = [
  StoreSaved.type,
  MerchantCategoryCreated.type,
  MerchantCategoryUpdated.type,
  MerchantCategoryDeleted.type,
  ProductUpdated.type,
  ProductDeleted.type,
  ProductApproved.type,
] as const;
