import { Module } from '@nestjs/common';
import { AdminProductsController } from './admin-products.controller.js';
import { AdminStoresController } from './admin-stores.controller.js';
import {
  CreateMerchantCategoryHandler,
  DeleteMerchantCategoryHandler,
  UpdateMerchantCategoryHandler,
} from './commands/categories.js';
import { DeleteProductHandler, SubmitProductHandler, UpdateProductHandler } from './commands/products.js';
import { ApproveProductHandler, RejectProductHandler } from './commands/review.js';
import { SaveStoreHandler } from './commands/store.js';
import { SetStoreVisibilityHandler } from './commands/store-visibility.js';
import {
  MerchantCategoriesController,
  MerchantProductsController,
  MerchantStoreController,
} from './merchant-storefront.controllers.js';
import { PublicStoresController } from './public-stores.controller.js';
import { StorePageCache } from './queries/store-page-cache.js';

/** The command handlers of the storefront: stores, merchant categories, products and their review. */
@Module({
  providers: [
    SaveStoreHandler,
    CreateMerchantCategoryHandler,
    UpdateMerchantCategoryHandler,
    DeleteMerchantCategoryHandler,
    SubmitProductHandler,
    UpdateProductHandler,
    DeleteProductHandler,
    ApproveProductHandler,
    RejectProductHandler,
    SetStoreVisibilityHandler,
  ],
})
export class StorefrontCommandsModule {}

/** Merchant storefronts: the store page, its categories and products, their approval, public pages. */
@Module({
  imports: [StorefrontCommandsModule],
  controllers: [
    PublicStoresController,
    MerchantStoreController,
    MerchantCategoriesController,
    MerchantProductsController,
    AdminProductsController,
    AdminStoresController,
  ],
  providers: [StorePageCache],
})
export class StorefrontModule {}
