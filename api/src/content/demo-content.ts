import type { DataSource, EntityManager } from 'typeorm';
import type { Seed } from '../database/seeds/index.js';
import { appendToOutbox } from '../events/unit-of-work.js';
import { storeImage } from '../media/media.js';
import { BANNER_POSITIONS, CONTENT_DEFAULTS } from '../rules/content.js';
import { type ContentKindName, ContentSaved } from './events/content-events.js';

/** A flat demo picture with a headline: enough to see the layout, small enough to load fast. */
export async function demoPicture(
  width: number,
  height: number,
  headline: string,
  hue: number,
): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const escaped = headline.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},70%,45%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},75%,60%)"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <text x="50%" y="50%" dominant-baseline="middle" text-anchor="middle" font-family="sans-serif"
      font-weight="700" font-size="${Math.round(height / 6)}" fill="#fff">${escaped}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).webp({ quality: 70 }).toBuffer();
}

async function addImage(
  manager: EntityManager,
  width: number,
  height: number,
  headline: string,
  hue: number,
) {
  return storeImage(manager, await demoPicture(width, height, headline, hue), 'image');
}

const HEROES = [
  ['Festive glow: up to 60% off skin care', 'glowbasket.in/festive'],
  ['Makeup must-haves from ₹199', 'colorbar.example.in/offers'],
  ['Hair care week: buy 1 get 1', 'tressco.example.in/b1g1'],
];

/**
 * The home page of the demo marketplace: three hero slides, a banner for every position, four
 * seasonal offers, the flash text and a best-offer banner. Written with their events, so the
 * workers build the public document as they would for an admin's uploads.
 */
export const demoContentSeed: Seed = {
  name: 'home-page content',
  async run(dataSource: DataSource) {
    return dataSource.transaction(async (manager) => {
      const [{ present }] = await manager.query('SELECT EXISTS (SELECT 1 FROM hero_images) AS present');
      if (present) return undefined;
      const events: ContentSaved[] = [];
      const saved = (kind: ContentKindName, rows: Array<{ id?: number; slot?: number }>) =>
        events.push(...rows.map((row) => new ContentSaved(kind, (row.id ?? row.slot) as number)));
      for (const [index, [headline, site]] of HEROES.entries()) {
        const imageId = await addImage(manager, 1600, 500, headline, 200 + index * 50);
        saved(
          'HeroImage',
          await manager.query(
            'INSERT INTO hero_images (image_id, merchant_url, sort_order) VALUES ($1, $2, $3) RETURNING id',
            [imageId, `https://${site}`, index],
          ),
        );
      }
      for (const [index, position] of BANNER_POSITIONS.entries()) {
        const imageId = await addImage(
          manager,
          1200,
          300,
          `Offers of the week · ${position}`,
          20 + index * 60,
        );
        saved(
          'Banner',
          await manager.query(
            'INSERT INTO banners (position, image_id, merchant_url) VALUES ($1, $2, $3) RETURNING id',
            [position, imageId, 'https://glowbasket.in/week'],
          ),
        );
      }
      for (const slot of [1, 2, 3, 4]) {
        const imageId = await addImage(
          manager,
          600,
          400,
          ['Diwali', 'Winter', 'Wedding', 'New Year'][slot - 1],
          slot * 70,
        );
        saved(
          'SeasonalOffer',
          await manager.query(
            'INSERT INTO seasonal_offers (slot, image_id, merchant_url) VALUES ($1, $2, $3) RETURNING slot',
            [slot, imageId, `https://glowbasket.in/season/${slot}`],
          ),
        );
      }
      saved(
        'FlashText',
        await manager.query(
          `INSERT INTO flash_texts (text, content_type, position, merchant_url) VALUES ($1, $2, $3, $4) RETURNING id`,
          [
            CONTENT_DEFAULTS.flashText,
            CONTENT_DEFAULTS.flashContentType,
            CONTENT_DEFAULTS.flashPosition,
            'https://glowbasket.in/sale',
          ],
        ),
      );
      const bestOfferImage = await addImage(manager, 1200, 300, 'Best offers today', 330);
      saved(
        'BestOfferBanner',
        await manager.query(
          `INSERT INTO best_offer_banners (name, type, frame, image_id, merchant_url) VALUES ($1, $1, $1, $2, $3) RETURNING id`,
          [CONTENT_DEFAULTS.bestOfferBanner, bestOfferImage, 'https://glowbasket.in/best'],
        ),
      );
      await appendToOutbox(manager, events);
      return `${events.length} items: heroes, banners, seasonal offers, flash text, best-offer banner`;
    });
  },
};
