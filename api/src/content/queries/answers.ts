/**
 * The home page's public answers, as JSON carries them. Types only and without dependencies, so
 * both web apps import them (type-only) instead of copying them.
 */
import type { CouponCard } from '../../coupons/queries/answers.js';
import type { BannerPosition, Translated } from '../../rules/content.js';

/**
 * A picture's title and alt text in the three languages, as the admin gave them: the site shows
 * the visitor's language and English where a translation is missing (`textIn`). Null English on
 * pictures added before they had texts.
 */
export type PictureTexts = Translated<'title' | 'altText'>;

export interface PublicHero extends PictureTexts {
  id: number;
  imageUrl: string | null;
  merchantUrl: string;
  sortOrder: number;
}

export interface PublicBanner extends PictureTexts {
  id: number;
  position: BannerPosition;
  imageUrl: string | null;
  merchantUrl: string;
}

export interface PublicSeasonalOffer extends PictureTexts {
  slot: number;
  imageUrl: string | null;
  merchantUrl: string;
}

export interface PublicFlashText extends Translated<'text'> {
  /** In English. */
  text: string;
  contentType: 'text' | 'image';
  position: string;
  merchantUrl: string | null;
  imageUrl: string | null;
}

export interface PublicBestOfferBanner extends Translated<'name'> {
  /** In English. */
  name: string;
  imageUrl: string | null;
  merchantUrl: string;
  uploadedAt: string;
}

/**
 * What the public sees of the curated content, every text in English, Hindi and Telugu: one
 * document for the three languages of the site, kept in `home_content` by its projection.
 */
export interface HomeContent {
  heroes: PublicHero[];
  banners: Record<BannerPosition, PublicBanner[]>;
  seasonalOffers: PublicSeasonalOffer[];
  /** The shown flash text of each position. */
  flashTexts: Record<string, PublicFlashText>;
  bestOfferBanner: PublicBestOfferBanner | null;
}

export interface HomePage extends Omit<HomeContent, 'flashTexts'> {
  topCoupons: CouponCard[];
  flashText: PublicFlashText | null;
}
