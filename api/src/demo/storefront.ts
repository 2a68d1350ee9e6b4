import type { DataSource, EntityManager } from 'typeorm';
import { insertDemoMerchant } from '../identity/demo-merchants.js';
import { merchantIdByUserName } from '../identity/queries/profiles.js';
import type { DomainEvent } from '../infrastructure/events/domain-event.js';
import { appendToOutbox } from '../infrastructure/events/unit-of-work.js';
import { storeImage } from '../media/media.js';
import { rupeesToPaise } from '../rules/money.js';
import {
  MerchantCategoryCreated,
  ProductApproved,
  ProductSubmitted,
  StoreSaved,
} from '../storefront/events/storefront-events.js';
import { prepareProductImages, storeProductImages } from '../storefront/product-images.js';
import type { Seed } from './seeds.js';

export const DEMO_STORE_MERCHANT = { userName: 'demostore', password: 'Demo@2026' } as const;

type Colour = [number, number, number];

const CATALOGUE: Array<{
  categoryName: string;
  description: string;
  products: Array<{ productName: string; brand: string; price: string; description: string; colour: Colour }>;
}> = [
  {
    categoryName: 'Face care',
    description: 'Serums, cleansers and moisturisers',
    products: [
      {
        productName: 'Vitamin C brightening serum',
        brand: 'Glow',
        price: '1299.50',
        description: 'A light serum with 10% vitamin C, 30 ml.',
        colour: [242, 153, 74],
      },
      {
        productName: 'Neem face wash',
        brand: 'Glow',
        price: '349.00',
        description: 'Gentle daily cleanser with neem and tulsi, 100 ml.',
        colour: [111, 168, 96],
      },
    ],
  },
  {
    categoryName: 'Hair care',
    description: 'Oils and shampoos',
    products: [
      {
        productName: 'Bhringraj hair oil',
        brand: 'Glow Naturals',
        price: '499.00',
        description: 'Cold-pressed oil blend for the scalp, 200 ml.',
        colour: [64, 120, 92],
      },
    ],
  },
  {
    categoryName: 'Gift sets',
    description: 'Boxes for festivals and birthdays',
    products: [
      {
        productName: 'Diwali glow gift box',
        brand: 'Glow',
        price: '2499.00',
        description: 'Serum, face wash and a scented candle in a gift box.',
        colour: [196, 54, 92],
      },
    ],
  },
];

/** A soft diagonal gradient of the colour, as PNG: stands in for photographs in the demo. */
async function demoImage(width: number, height: number, [r, g, b]: Colour): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const shade = 0.75 + (0.25 * (x + y)) / (width + height);
      const at = (y * width + x) * 3;
      pixels[at] = Math.min(255, r * shade + 30);
      pixels[at + 1] = Math.min(255, g * shade + 30);
      pixels[at + 2] = Math.min(255, b * shade + 30);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

function demoMerchant(manager: EntityManager): Promise<number> {
  return insertDemoMerchant(manager, {
    merchantName: 'Glow Cosmetics',
    brandName: 'Glow',
    industry: 'Beauty',
    category: 'Skin Care',
    address: '4 Park Street, Kolkata',
    email: 'demo.store@offers.localhost',
    mobile: '9876500001',
    siteUrl: 'https://glow.example.in',
    userName: DEMO_STORE_MERCHANT.userName,
    password: DEMO_STORE_MERCHANT.password,
  });
}

/**
 * A demo merchant with a store page: logo, banners, three categories and four approved products.
 * Its events go to the outbox like any change, so the workers build the public page. Skipped when
 * the demo merchant exists, and in production (the account's password is public).
 */
export const demoStorefrontSeed: Seed = {
  name: 'storefront',
  async run(dataSource: DataSource, environment) {
    if (environment.NODE_ENV === 'production') return undefined;
    return dataSource.transaction(async (manager) => {
      // Two seeds at once (two starts) take turns; the second finds the store made.
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('seed:storefront'))");
      if ((await merchantIdByUserName(manager, DEMO_STORE_MERCHANT.userName)) !== undefined) return undefined;
      const merchantId = await demoMerchant(manager);
      const events: DomainEvent<object>[] = [];
      const [logo, landing, hero] = [
        await storeImage(manager, await demoImage(256, 256, [196, 54, 92]), 'merchantLogo'),
        await storeImage(manager, await demoImage(1600, 500, [242, 153, 74]), 'landingBanner'),
        await storeImage(manager, await demoImage(1600, 600, [111, 168, 96]), 'heroBannerImage'),
      ];
      await manager.query(
        `INSERT INTO merchant_stores (merchant_id, store_name, store_address, tagline, about_description,
                                      merchant_logo_id, landing_banner_id, hero_banner_image_id)
         VALUES ($1, 'Glow Cosmetics', '4 Park Street, Kolkata', 'Skin care made in India',
                 'Small-batch skin and hair care from Kolkata, made with Ayurvedic herbs.', $2, $3, $4)`,
        [merchantId, logo, landing, hero],
      );
      events.push(new StoreSaved(String(merchantId), { merchantId }));
      for (const shelf of CATALOGUE) {
        const [category] = await manager.query(
          'INSERT INTO merchant_categories (merchant_id, category_name, description) VALUES ($1, $2, $3) RETURNING id',
          [merchantId, shelf.categoryName, shelf.description],
        );
        events.push(new MerchantCategoryCreated(String(category.id), { merchantId }));
        for (const item of shelf.products) {
          const images = await storeProductImages(
            manager,
            await prepareProductImages(
              { large: await demoImage(1280, 1280, item.colour) },
              () => 'imageLarge',
            ),
          );
          const [product] = await manager.query(
            `INSERT INTO products (merchant_id, category_id, product_name, brand, description, price_paise,
                                   merchant_url, image_small_id, image_medium_id, image_large_id, status, reviewed_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'https://glow.example.in', $7, $8, $9, 'approved', now())
             RETURNING id`,
            [
              merchantId,
              category.id,
              item.productName,
              item.brand,
              item.description,
              rupeesToPaise(item.price),
              images!.small,
              images!.medium,
              images!.large,
            ],
          );
          const named = { merchantId, productName: item.productName };
          events.push(
            new ProductSubmitted(String(product.id), named),
            new ProductApproved(String(product.id), named),
          );
        }
      }
      await appendToOutbox(manager, events);
      return `store page of merchant "${DEMO_STORE_MERCHANT.userName}" (password "${DEMO_STORE_MERCHANT.password}") at /api/stores/${merchantId}`;
    });
  },
};
