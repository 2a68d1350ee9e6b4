import { CONTENT_MESSAGES as M } from '../rules/content.js';
import type { ContentKind } from './commands/content-commands.js';
import { Banner, BestOfferBanner, FlashText, HeroImage, SeasonalOffer } from './entities/content.entities.js';

export const HERO_IMAGES: ContentKind = {
  name: 'HeroImage',
  entity: HeroImage,
  key: 'id',
  touched: 'updatedAt',
  notFound: 'Hero image not found.',
  imageRequired: M.imageRequired,
  invalidMessage: M.heroFailed,
};

export const BANNERS: ContentKind = {
  name: 'Banner',
  entity: Banner,
  key: 'id',
  touched: 'updatedAt',
  notFound: 'Banner not found.',
  imageRequired: M.imageRequired,
};

export const SEASONAL_OFFERS: ContentKind = {
  name: 'SeasonalOffer',
  entity: SeasonalOffer,
  key: 'slot',
  touched: 'updatedAt',
  notFound: 'This seasonal offer slot is empty.',
  createdOnFirstSave: true,
  imageRequired: M.imageRequired,
  invalidMessage: M.seasonalAllRequired,
};

export const FLASH_TEXTS: ContentKind = {
  name: 'FlashText',
  entity: FlashText,
  key: 'id',
  touched: 'updatedAt',
  notFound: 'Flash text not found.',
};

export const BEST_OFFER_BANNERS: ContentKind = {
  name: 'BestOfferBanner',
  entity: BestOfferBanner,
  key: 'id',
  touched: 'uploadedAt',
  notFound: 'Best-offer banner not found.',
  imageRequired: M.bestOfferImageRequired,
};
