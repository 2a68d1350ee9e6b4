import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { CouponListings } from '../../coupons/queries/listings.js';
import { mediaUrl } from '../../media/media.js';
import {
  BANNER_POSITIONS,
  type BannerPosition,
  CONTENT_DEFAULTS,
  CONTENT_LIMITS,
} from '../../rules/content.js';
import type { HomeContent, HomePage, PictureTexts, PublicBanner } from './answers.js';
import { homeContentDocument } from './home-content-document.js';

const PICTURE_TEXT_COLUMNS = 'title, title_hi, title_te, alt_text, alt_text_hi, alt_text_te';

type Row = Record<string, never>;

function pictureTexts(row: Row): PictureTexts {
  return {
    title: row.title,
    titleHi: row.title_hi,
    titleTe: row.title_te,
    altText: row.alt_text,
    altTextHi: row.alt_text_hi,
    altTextTe: row.alt_text_te,
  };
}

/** Whether any hero slide was ever saved (the demo seed's sign that the home page has content). */
export async function hasHeroImages(reader: Pick<EntityManager, 'query'>): Promise<boolean> {
  const [{ present }] = await reader.query('SELECT EXISTS (SELECT 1 FROM hero_images) AS present');
  return present;
}

/**
 * Reads the write tables into the public document: active items only, in their order; of several
 * active flash texts for one position or best-offer banners, the newest shows.
 */
export async function buildHomeContent(manager: EntityManager): Promise<HomeContent> {
  // One after the other: the projection reads in its transaction, whose one connection runs one
  // statement at a time (node-postgres queues the rest, a use it deprecates).
  const heroes = await manager.query(
    `SELECT id, image_id, merchant_url, sort_order, ${PICTURE_TEXT_COLUMNS}
       FROM hero_images WHERE is_active ORDER BY sort_order, id`,
  );
  const banners = await manager.query(
    `SELECT id, position, image_id, merchant_url, ${PICTURE_TEXT_COLUMNS}
       FROM banners WHERE is_active ORDER BY position, sort_order, id`,
  );
  const seasonal = await manager.query(
    `SELECT slot, image_id, merchant_url, ${PICTURE_TEXT_COLUMNS} FROM seasonal_offers ORDER BY slot`,
  );
  const flashTexts = await manager.query(
    `SELECT DISTINCT ON (position) text, text_hi, text_te, content_type, position, merchant_url, image_id
       FROM flash_texts WHERE is_active ORDER BY position, updated_at DESC, id DESC`,
  );
  const [bestOffer] = await manager.query(
    `SELECT name, name_hi, name_te, image_id, merchant_url, uploaded_at FROM best_offer_banners
       WHERE is_active ORDER BY uploaded_at DESC, id DESC LIMIT 1`,
  );
  const byPosition = Object.fromEntries(
    BANNER_POSITIONS.map((position) => [position, []]),
  ) as unknown as Record<BannerPosition, PublicBanner[]>;
  for (const row of banners) {
    byPosition[row.position as BannerPosition].push({
      id: row.id,
      position: row.position,
      imageUrl: mediaUrl(row.image_id),
      merchantUrl: row.merchant_url,
      ...pictureTexts(row),
    });
  }
  return {
    heroes: heroes.map((row: Row) => ({
      id: row.id,
      imageUrl: mediaUrl(row.image_id),
      merchantUrl: row.merchant_url,
      sortOrder: row.sort_order,
      ...pictureTexts(row),
    })),
    banners: byPosition,
    seasonalOffers: seasonal.map((row: Row) => ({
      slot: row.slot,
      imageUrl: mediaUrl(row.image_id),
      merchantUrl: row.merchant_url,
      ...pictureTexts(row),
    })),
    flashTexts: Object.fromEntries(
      flashTexts.map((row: Row) => [
        row.position,
        {
          text: row.text,
          textHi: row.text_hi,
          textTe: row.text_te,
          contentType: row.content_type,
          position: row.position,
          merchantUrl: row.merchant_url,
          imageUrl: mediaUrl(row.image_id),
        },
      ]),
    ),
    bestOfferBanner: bestOffer
      ? {
          name: bestOffer.name,
          nameHi: bestOffer.name_hi,
          nameTe: bestOffer.name_te,
          imageUrl: mediaUrl(bestOffer.image_id),
          merchantUrl: bestOffer.merchant_url,
          uploadedAt: new Date(bestOffer.uploaded_at).toISOString(),
        }
      : null,
  };
}

/** The public reads of the home page: the content document and the top coupons. */
@Injectable()
export class HomePageQueries {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly listings: CouponListings,
  ) {}

  async content(): Promise<HomeContent> {
    // The projection builds the document when the workers start, before the site is served.
    return (await homeContentDocument(this.dataSource))!;
  }

  async homePage(): Promise<HomePage> {
    const [{ flashTexts, ...content }, top] = await Promise.all([
      this.content(),
      this.listings.find({ sort: 'top', page: 1, perPage: CONTENT_LIMITS.homeTopCoupons }),
    ]);
    return {
      ...content,
      topCoupons: top.data,
      flashText: flashTexts[CONTENT_DEFAULTS.flashPosition] ?? null,
    };
  }
}
