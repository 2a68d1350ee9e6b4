import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import type { BannerPosition, FlashContentType } from '../../rules/content.js';

/** An image on the home page that links to a merchant. */
abstract class PlacedImage {
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
export class SeasonalOffer {
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

  @Column('text')
  text: string;

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

  @Column('text')
  name: string;

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
