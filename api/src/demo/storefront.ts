import type { DataSource, EntityManager } from 'typeorm';
import { insertDemoMerchant } from '../identity/demo-merchants.js';
import { merchantIdByUserName } from '../identity/queries/profiles.js';
import { runInTransaction } from '../infrastructure/events/unit-of-work.js';
import { createMerchantCategory } from '../storefront/commands/categories.js';
import { submitProduct } from '../storefront/commands/products.js';
import { approveProduct } from '../storefront/commands/review.js';
import { SaveStore, saveStore } from '../storefront/commands/store.js';
import { prepareProductImages } from '../storefront/product-images.js';
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
 * A demo merchant with a store page: logo, banners, three categories and four approved products,
 * made as the merchant and an admin would: the store saved, the categories created and the
 * products submitted through the storefront commands' work, then approved, each with its event,
 * so the workers build the public page. Skipped when the demo merchant exists, and in production
 * (the account's password is public).
 */
export const demoStorefrontSeed: Seed = {
  name: 'storefront',
  async run(dataSource: DataSource, environment) {
    if (environment.NODE_ENV === 'production') return undefined;
    // The pictures are drawn and sized before the transaction, as the commands prepare uploads.
    const images = {
      merchantLogo: await demoImage(256, 256, [196, 54, 92]),
      landingBanner: await demoImage(1600, 500, [242, 153, 74]),
      heroBannerImage: await demoImage(1600, 600, [111, 168, 96]),
    };
    const shelves = await Promise.all(
      CATALOGUE.map(async (shelf) => ({
        shelf,
        products: await Promise.all(
          shelf.products.map(async (item) => ({
            item,
            images: await prepareProductImages(
              { large: await demoImage(1280, 1280, item.colour) },
              () => 'imageLarge',
            ),
          })),
        ),
      })),
    );
    return runInTransaction(dataSource, async (tx) => {
      // Two seeds at once (two starts) take turns; the second finds the store made.
      await tx.manager.query("SELECT pg_advisory_xact_lock(hashtext('seed:storefront'))");
      if ((await merchantIdByUserName(tx.manager, DEMO_STORE_MERCHANT.userName)) !== undefined)
        return undefined;
      const merchantId = await demoMerchant(tx.manager);
      await saveStore(
        tx,
        new SaveStore(
          merchantId,
          {
            storeName: 'Glow Cosmetics',
            storeAddress: '4 Park Street, Kolkata',
            tagline: 'Skin care made in India',
            aboutDescription: 'Small-batch skin and hair care from Kolkata, made with Ayurvedic herbs.',
          },
          images,
        ),
      );
      for (const { shelf, products } of shelves) {
        const { categoryId } = await createMerchantCategory(tx, merchantId, {
          categoryName: shelf.categoryName,
          description: shelf.description,
        });
        for (const { item, images: productImages } of products) {
          const { productId } = await submitProduct(
            tx,
            merchantId,
            {
              categoryId,
              productName: item.productName,
              brand: item.brand,
              description: item.description,
              price: item.price,
              merchantUrl: 'https://glow.example.in',
            },
            productImages,
          );
          await approveProduct(tx, productId);
        }
      }
      return `store page of merchant "${DEMO_STORE_MERCHANT.userName}" (password "${DEMO_STORE_MERCHANT.password}") at /api/stores/${merchantId}`;
    });
  },
};
