import {
  Banner,
  BestOfferBanner,
  FlashText,
  HeroImage,
  SeasonalOffer,
} from './content/entities/content.entities.js';
import { Coupon, Slot } from './coupons/entities/coupon.entity.js';
import { Admin } from './identity/entities/admin.entity.js';
import { Merchant } from './identity/entities/merchant.entity.js';
import { User } from './identity/entities/user.entity.js';
import { MerchantCategory, MerchantStore, Product } from './storefront/entities/storefront.entities.js';

/**
 * The features' entities, given to the processes' data sources by their composition roots (the
 * API's and the workers' modules, the seed command): the infrastructure knows only its own (the
 * outbox and the inbox). TypeORM under ESM takes classes, not globs.
 */
export const featureEntities = [
  User,
  Merchant,
  Admin,
  Coupon,
  Slot,
  HeroImage,
  Banner,
  SeasonalOffer,
  FlashText,
  BestOfferBanner,
  MerchantStore,
  MerchantCategory,
  Product,
];
