import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ProductStatus } from '../../rules/storefront.js';

/** A merchant's public store page: one per merchant. */
@Entity('merchant_stores')
export class MerchantStore {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id: number;

  @Column('int', { name: 'merchant_id' })
  merchantId: number;

  @Column('text', { name: 'store_name' })
  storeName: string;

  @Column('text', { name: 'store_address', default: '' })
  storeAddress: string;

  @Column('text', { default: '' })
  tagline: string;

  @Column('text', { name: 'about_description', default: '' })
  aboutDescription: string;

  @Column('boolean', { name: 'is_active', default: true })
  isActive: boolean;

  @Column('uuid', { name: 'merchant_logo_id', nullable: true })
  merchantLogoId: string | null;

  @Column('uuid', { name: 'landing_banner_id', nullable: true })
  landingBannerId: string | null;

  @Column('uuid', { name: 'hero_banner_image_id', nullable: true })
  heroBannerImageId: string | null;

  @Column('timestamptz', { name: 'created_date', default: () => 'now()' })
  createdDate: Date;

  @Column('timestamptz', { name: 'updated_date', default: () => 'now()' })
  updatedDate: Date;
}

/** A shelf of a merchant's own store page (not one of the site's eight categories). */
@Entity('merchant_categories')
export class MerchantCategory {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id: number;

  @Column('int', { name: 'merchant_id' })
  merchantId: number;

  @Column('text', { name: 'category_name' })
  categoryName: string;

  @Column('text', { default: '' })
  description: string;

  @Column('boolean', { name: 'is_active', default: true })
  isActive: boolean;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}

@Entity('products')
export class Product {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'ALWAYS' })
  id: number;

  @Column('int', { name: 'merchant_id' })
  merchantId: number;

  @Column('int', { name: 'category_id', nullable: true })
  categoryId: number | null;

  @Column('text', { name: 'product_name' })
  productName: string;

  @Column('text', { default: '' })
  brand: string;

  @Column('text', { default: '' })
  description: string;

  /** Rupees are kept as whole paise, never as floating point. */
  @Column('bigint', {
    name: 'price_paise',
    transformer: { to: (value) => value, from: (value: string) => Number(value) },
  })
  pricePaise: number;

  @Column('text', { name: 'merchant_url', nullable: true })
  merchantUrl: string | null;

  @Column('uuid', { name: 'image_small_id', nullable: true })
  imageSmallId: string | null;

  @Column('uuid', { name: 'image_medium_id', nullable: true })
  imageMediumId: string | null;

  @Column('uuid', { name: 'image_large_id', nullable: true })
  imageLargeId: string | null;

  @Column('text', { default: 'pending' })
  status: ProductStatus;

  @Column('text', { name: 'rejection_reason', nullable: true })
  rejectionReason: string | null;

  @Column('text', { name: 'advised_changes', nullable: true })
  advisedChanges: string | null;

  @Column('timestamptz', { name: 'submitted_at', default: () => 'now()' })
  submittedAt: Date;

  @Column('timestamptz', { name: 'reviewed_at', nullable: true })
  reviewedAt: Date | null;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt: Date;
}
