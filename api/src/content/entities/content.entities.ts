import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { BannerPosition, FlashContentType } from '../../rules/content.js';

/**
 * A picture's title and alt text in English, Hindi and Telugu. English is null only on rows made
 * before pictures had texts; a translation is null where English stands in for it.
 */
abstract class TitledImage {
  @Column('text', { nullable: true })
  title: string | null;

  @Column('text', { name: 'title_hi', nullable: true })
  titleHi: string | null;

  @Column('text', { name: 'title_te', nullable: true })
  titleTe: string | null;

  @Column('text', { name: 'alt_text', nullable: true })
  altText: string | null;

  @Column('text', { name: 'alt_text_hi', nullable: true })
  altTextHi: string | null;

  @Column('text', { name: 'alt_text_te', nullable: true })
  altTextTe: string | null;
}

/** An image on the home page that links to a merchant. */
abstract class PlacedImage extends TitledImage {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id: number;

  @Column('uuid', { name: 'image_id' })
  imageId: string;

  @Column('text', { name: 'merchant_url' })
  merchantUrl: string;

  @Column('int', { name: 'sort_order', default: 0 })
  sortOrder: number;

  @Column('boolean', { name: 'is_active', default: true })
  isActive: boolean;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}

/** A slide of the home page's hero carousel. */
@Entity('hero_images')
export class HeroImage extends PlacedImage {}

@Entity('banners')
export class Banner extends PlacedImage {
  @Column('text')
  position: BannerPosition;
}

/** One of the four seasonal offer images; the slot is its identity. */
@Entity('seasonal_offers')
export class SeasonalOffer extends TitledImage {
  @PrimaryColumn('smallint')
  slot: number;

  @Column('uuid', { name: 'image_id' })
  imageId: string;

  @Column('text', { name: 'merchant_url' })
  merchantUrl: string;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}

/** The strip above the header: a line of text, or an image, linking to a merchant. */
@Entity('flash_texts')
export class FlashText {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id: number;

  /** In English; shown wherever its translation is missing. */
  @Column('text')
  text: string;

  @Column('text', { name: 'text_hi', nullable: true })
  textHi: string | null;

  @Column('text', { name: 'text_te', nullable: true })
  textTe: string | null;

  @Column('text', { name: 'content_type' })
  contentType: FlashContentType;

  @Column('text')
  position: string;

  @Column('boolean', { name: 'is_active', default: true })
  isActive: boolean;

  @Column('text', { name: 'merchant_url', nullable: true })
  merchantUrl: string | null;

  @Column('uuid', { name: 'image_id', nullable: true })
  imageId: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}

/** The banner of the best-offers page; the newest active one shows. */
@Entity('best_offer_banners')
export class BestOfferBanner {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id: number;

  /** In English; shown wherever its translation is missing. */
  @Column('text')
  name: string;

  @Column('text', { name: 'name_hi', nullable: true })
  nameHi: string | null;

  @Column('text', { name: 'name_te', nullable: true })
  nameTe: string | null;

  @Column('text')
  type: string;

  @Column('text')
  frame: string;

  @Column('uuid', { name: 'image_id' })
  imageId: string;

  @Column('text', { name: 'merchant_url' })
  merchantUrl: string;

  @Column('boolean', { name: 'is_active', default: true })
  isActive: boolean;

  @Column('timestamptz', { name: 'uploaded_at', default: () => 'now()' })
  uploadedAt: Date;
}
