import {
  Banner,
  BestOfferBanner,
  FlashText,
  HeroImage,
  SeasonalOffer,
} from '../../content/entities/content.entities.js';
import { Coupon, Slot } from '../../coupons/entities/coupon.entity.js';
import { Admin } from '../../identity/entities/admin.entity.js';
import { Merchant } from '../../identity/entities/merchant.entity.js';
import { User } from '../../identity/entities/user.entity.js';
import { MerchantCategory, MerchantStore, Product } from '../../storefront/entities/storefront.entities.js';
import { InboxEntry, OutboxEvent } from '../events/outbox-event.entity.js';

/** Every entity of the product; TypeORM under ESM takes classes, not globs. */
export const entities = [
  OutboxEvent,
  InboxEntry,
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
