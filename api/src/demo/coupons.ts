import type { DataSource } from 'typeorm';
import { approveCoupon } from '../coupons/commands/review.js';
import { SubmitCoupon, submitCoupon } from '../coupons/commands/submission.js';
import { backdateDemoApproval } from '../coupons/demo-coupons.js';
import { categoriesInShopOrder } from '../coupons/queries/coupon-suggestions.js';
import { slotKinds } from '../coupons/queries/slots.js';
import { insertDemoMerchant } from '../identity/demo-merchants.js';
import { merchantIdByUserName } from '../identity/queries/profiles.js';
import { runInTransaction, type Transaction } from '../infrastructure/events/unit-of-work.js';
import { CATEGORIES, nextMarketMidnight } from '../rules/coupons.js';
import { SaveStore, saveStore } from '../storefront/commands/store.js';
import { demoLogo, demoPicture } from './content.js';
import type { Seed } from './seeds.js';

/** The demo merchants' password; shown by `npm start` only in development. */
export const DEMO_MERCHANT_PASSWORD = 'Demo@2026';

type Category = (typeof CATEGORIES)[number];

interface DemoOffer {
  title: string;
  percentage: number;
  /** Most a shopper saves, in rupees. */
  upTo: number;
  category: Category;
  description: string;
  terms: string;
  /** Days until it ends; 0 ends tonight (India's midnight). */
  days: number;
}

interface DemoStore {
  name: string;
  user: string;
  site: string;
  hue: number;
  city: string;
  tagline: string;
  about: string;
  offers: DemoOffer[];
}

const MIN_ORDER = (rupees: number) =>
  `Valid on orders above ₹${rupees}. One use per customer. Cannot be combined with other offers.`;

/** A dozen beauty and grooming stores, three offers each: some end today, most run for weeks. */
export const DEMO_STORES: DemoStore[] = [
  {
    name: 'Kesar Beauty',
    user: 'demo-kesar',
    site: 'https://kesar.example.in',
    hue: 24,
    city: 'Jaipur',
    tagline: 'Saffron skin care from Rajasthan',
    about: 'Serums, creams and face packs made with Kashmiri saffron and cold-pressed oils.',
    offers: [
      {
        title: 'Flat 40% off on face serums',
        percentage: 40,
        upTo: 400,
        category: 'Skin Care',
        description: 'Vitamin C, niacinamide and saffron serums, 30 ml.',
        terms: MIN_ORDER(499),
        days: 0,
      },
      {
        title: 'Night cream 45% off',
        percentage: 45,
        upTo: 540,
        category: 'Skin Care',
        description: 'Saffron and almond night cream, 50 g.',
        terms: MIN_ORDER(699),
        days: 12,
      },
      {
        title: 'Ubtan face pack 20% off',
        percentage: 20,
        upTo: 100,
        category: 'Natural & Organic',
        description: 'Turmeric, sandalwood and gram flour ubtan, 100 g.',
        terms: MIN_ORDER(299),
        days: 40,
      },
    ],
  },
  {
    name: 'Aaina Cosmetics',
    user: 'demo-aaina',
    site: 'https://aaina.example.in',
    hue: 340,
    city: 'Mumbai',
    tagline: 'Colour for every Indian skin tone',
    about: 'Lipsticks, kajal and foundations in 40 shades, cruelty free.',
    offers: [
      {
        title: 'Buy 2 get 1 free on lipsticks',
        percentage: 33,
        upTo: 299,
        category: 'Makeup',
        description: 'Any three matte or creme lipsticks; the cheapest is free.',
        terms: 'The lowest-priced lipstick in the cart is free. One use per customer.',
        days: 1,
      },
      {
        title: 'Kajal and eyeliner duo 15% off',
        percentage: 15,
        upTo: 99,
        category: 'Makeup',
        description: 'Smudge-proof kajal with a liquid liner.',
        terms: MIN_ORDER(249),
        days: 20,
      },
      {
        title: 'Nail paint set 60% off',
        percentage: 60,
        upTo: 360,
        category: 'Makeup',
        description: 'Six festive shades in gift packing.',
        terms: 'While stocks last. One set per order.',
        days: 8,
      },
    ],
  },
  {
    name: 'Urban Kesh',
    user: 'demo-urbankesh',
    site: 'https://urbankesh.example.in',
    hue: 200,
    city: 'Bengaluru',
    tagline: 'Hair care for city water',
    about: 'Shampoos and oils for hard water and pollution, tested by trichologists.',
    offers: [
      {
        title: '25% off onion hair oil',
        percentage: 25,
        upTo: 150,
        category: 'Hair Care',
        description: 'Onion and bhringraj oil for hair fall, 200 ml.',
        terms: MIN_ORDER(399),
        days: 0,
      },
      {
        title: 'Anti-dandruff shampoo 2 for 1',
        percentage: 50,
        upTo: 350,
        category: 'Hair Care',
        description: 'Two bottles of ketoconazole-free shampoo for the price of one.',
        terms: 'Both bottles must be in the same order.',
        days: 15,
      },
      {
        title: 'Hair straightener ₹700 off',
        percentage: 28,
        upTo: 700,
        category: 'Tools & Accessories',
        description: 'Ceramic plates, five heat settings, two-year warranty.',
        terms: 'Prepaid orders only. One per customer.',
        days: 30,
      },
    ],
  },
  {
    name: 'Rooh Fragrances',
    user: 'demo-rooh',
    site: 'https://rooh.example.in',
    hue: 275,
    city: 'Kannauj',
    tagline: 'Attars distilled in Kannauj',
    about: 'Alcohol-free attars and perfumes from a family of distillers since 1920.',
    offers: [
      {
        title: 'Perfume minis at 50% off',
        percentage: 50,
        upTo: 500,
        category: 'Fragrance',
        description: 'Five 10 ml minis to find your scent.',
        terms: MIN_ORDER(599),
        days: 3,
      },
      {
        title: 'Oud attar 20% off',
        percentage: 20,
        upTo: 600,
        category: 'Fragrance',
        description: 'Aged oud attar, 6 ml roll-on.',
        terms: MIN_ORDER(999),
        days: 45,
      },
      {
        title: 'Rose and vetiver gift set 30% off',
        percentage: 30,
        upTo: 450,
        category: 'Fragrance',
        description: 'Two attars in a wooden box.',
        terms: 'Gift wrapping included. One use per customer.',
        days: 25,
      },
    ],
  },
  {
    name: 'Sutra Bath',
    user: 'demo-sutra',
    site: 'https://sutra.example.in',
    hue: 170,
    city: 'Kochi',
    tagline: 'Handmade soaps from Kerala',
    about: 'Cold-process soaps and body butters with coconut and spices from Kerala.',
    offers: [
      {
        title: 'Bath & body combo for ₹499',
        percentage: 30,
        upTo: 250,
        category: 'Bath & Body',
        description: 'Three soaps, a body butter and a loofah.',
        terms: 'Combo price applies at checkout with the code.',
        days: 0,
      },
      {
        title: 'Body lotion 1 litre at 40% off',
        percentage: 40,
        upTo: 320,
        category: 'Bath & Body',
        description: 'Coconut and shea body lotion, pump bottle.',
        terms: MIN_ORDER(399),
        days: 18,
      },
      {
        title: 'Handmade soaps: buy 4 pay for 3',
        percentage: 25,
        upTo: 180,
        category: 'Bath & Body',
        description: 'Any four of twelve handmade soaps.',
        terms: 'The lowest-priced soap is free.',
        days: 60,
      },
    ],
  },
  {
    name: 'Tejas Grooming',
    user: 'demo-tejas',
    site: 'https://tejas.example.in',
    hue: 30,
    city: 'Pune',
    tagline: 'Grooming for Indian men',
    about: 'Beard oils, trimmers and face washes, made for Indian skin and weather.',
    offers: [
      {
        title: 'Beard kit at 45% off',
        percentage: 45,
        upTo: 450,
        category: "Men's Grooming",
        description: 'Beard oil, wash, comb and balm.',
        terms: MIN_ORDER(599),
        days: 2,
      },
      {
        title: 'Charcoal face wash 35% off',
        percentage: 35,
        upTo: 120,
        category: "Men's Grooming",
        description: 'Activated charcoal face wash, 100 ml.',
        terms: MIN_ORDER(199),
        days: 22,
      },
      {
        title: 'Trimmer ₹500 off',
        percentage: 20,
        upTo: 500,
        category: 'Tools & Accessories',
        description: '90-minute battery, 20 length settings.',
        terms: 'Prepaid orders only.',
        days: 35,
      },
    ],
  },
  {
    name: 'Mitti Organics',
    user: 'demo-mitti',
    site: 'https://mitti.example.in',
    hue: 95,
    city: 'Dehradun',
    tagline: 'Certified organic, from the hills',
    about: 'Organic oils, scrubs and teas from farms in Uttarakhand.',
    offers: [
      {
        title: 'Cold-pressed coconut oil 10% off',
        percentage: 10,
        upTo: 50,
        category: 'Natural & Organic',
        description: 'Virgin coconut oil for hair and skin, 500 ml.',
        terms: MIN_ORDER(249),
        days: 50,
      },
      {
        title: 'Organic ubtan face pack 20% off',
        percentage: 20,
        upTo: 100,
        category: 'Natural & Organic',
        description: 'Multani mitti and rose ubtan, 100 g.',
        terms: MIN_ORDER(299),
        days: 0,
      },
      {
        title: 'Herbal hair wash 15% off',
        percentage: 15,
        upTo: 90,
        category: 'Hair Care',
        description: 'Reetha, shikakai and amla powder.',
        terms: MIN_ORDER(249),
        days: 28,
      },
    ],
  },
  {
    name: 'Glow Bazaar',
    user: 'demo-glowbazaar',
    site: 'https://glowbazaar.example.in',
    hue: 310,
    city: 'Delhi',
    tagline: 'Every beauty brand, one bazaar',
    about: 'A multi-brand beauty shop with 300 brands and next-day delivery in 40 cities.',
    offers: [
      {
        title: 'Sunscreen SPF 50 at 30% off',
        percentage: 30,
        upTo: 180,
        category: 'Skin Care',
        description: 'Gel sunscreens that leave no white cast.',
        terms: MIN_ORDER(349),
        days: 5,
      },
      {
        title: 'Makeup brushes 35% off',
        percentage: 35,
        upTo: 200,
        category: 'Tools & Accessories',
        description: 'A set of 12 vegan brushes with a pouch.',
        terms: MIN_ORDER(499),
        days: 14,
      },
      {
        title: 'Extra 10% off for new shoppers',
        percentage: 10,
        upTo: 250,
        category: 'Makeup',
        description: 'On your first order, on top of the sale price.',
        terms: 'First order only. Sign-up needed.',
        days: 90,
      },
    ],
  },
  {
    name: 'Neelgiri Herbals',
    user: 'demo-neelgiri',
    site: 'https://neelgiri.example.in',
    hue: 150,
    city: 'Ooty',
    tagline: 'Eucalyptus and tea-tree care',
    about: 'Herbal care from the Nilgiris: oils, balms and face washes.',
    offers: [
      {
        title: 'Tea-tree face wash 25% off',
        percentage: 25,
        upTo: 90,
        category: 'Skin Care',
        description: 'For oily and acne-prone skin, 150 ml.',
        terms: MIN_ORDER(199),
        days: 9,
      },
      {
        title: 'Eucalyptus body wash 30% off',
        percentage: 30,
        upTo: 120,
        category: 'Bath & Body',
        description: 'Cooling body wash, 250 ml.',
        terms: MIN_ORDER(249),
        days: 1,
      },
      {
        title: 'Hair oil trio 40% off',
        percentage: 40,
        upTo: 300,
        category: 'Hair Care',
        description: 'Rosemary, bhringraj and coconut oils.',
        terms: MIN_ORDER(599),
        days: 33,
      },
    ],
  },
  {
    name: 'Saanjh Makeup',
    user: 'demo-saanjh',
    site: 'https://saanjh.example.in',
    hue: 5,
    city: 'Kolkata',
    tagline: 'Bridal and festive makeup',
    about: 'Long-wear makeup for weddings and festivals, with free shade matching.',
    offers: [
      {
        title: 'Bridal kit 20% off',
        percentage: 20,
        upTo: 1200,
        category: 'Makeup',
        description: 'Foundation, kajal, lipstick and setting spray.',
        terms: MIN_ORDER(2999),
        days: 21,
      },
      {
        title: 'Compact powder at ₹199',
        percentage: 50,
        upTo: 200,
        category: 'Makeup',
        description: 'Matte compact in eight shades.',
        terms: 'One per customer.',
        days: 0,
      },
      {
        title: 'Setting spray 30% off',
        percentage: 30,
        upTo: 150,
        category: 'Makeup',
        description: '16-hour setting spray, 100 ml.',
        terms: MIN_ORDER(399),
        days: 16,
      },
    ],
  },
  {
    name: 'Chandan & Co.',
    user: 'demo-chandan',
    site: 'https://chandan.example.in',
    hue: 45,
    city: 'Mysuru',
    tagline: 'Mysore sandalwood since 1952',
    about: 'Sandalwood soaps, oils and powders from Mysuru.',
    offers: [
      {
        title: 'Sandalwood soap pack 25% off',
        percentage: 25,
        upTo: 150,
        category: 'Bath & Body',
        description: 'Six bars of sandalwood soap.',
        terms: MIN_ORDER(299),
        days: 6,
      },
      {
        title: 'Sandalwood oil 15% off',
        percentage: 15,
        upTo: 400,
        category: 'Fragrance',
        description: 'Pure sandalwood oil, 5 ml.',
        terms: MIN_ORDER(1499),
        days: 55,
      },
      {
        title: 'Festive gift box 35% off',
        percentage: 35,
        upTo: 700,
        category: 'Bath & Body',
        description: 'Soaps, talc and an incense set in a brass box.',
        terms: 'While stocks last.',
        days: 4,
      },
    ],
  },
  {
    name: 'Vanya Naturals',
    user: 'demo-vanya',
    site: 'https://vanya.example.in',
    hue: 120,
    city: 'Hyderabad',
    tagline: 'Forest honey and herbal skin care',
    about: 'Skin care with forest honey and herbs, sourced from tribal cooperatives.',
    offers: [
      {
        title: 'Honey face mask 30% off',
        percentage: 30,
        upTo: 150,
        category: 'Natural & Organic',
        description: 'Forest honey and oats mask, 75 g.',
        terms: MIN_ORDER(299),
        days: 11,
      },
      {
        title: 'Aloe vera gel 2 for 1',
        percentage: 50,
        upTo: 200,
        category: 'Skin Care',
        description: 'Two tubs of pure aloe vera gel, 200 g each.',
        terms: 'Both tubs in the same order.',
        days: 0,
      },
      {
        title: 'Herbal lip balm set 25% off',
        percentage: 25,
        upTo: 75,
        category: 'Natural & Organic',
        description: 'Beeswax lip balms in four flavours.',
        terms: MIN_ORDER(199),
        days: 26,
      },
    ],
  },
];

/** How many live coupons the demo marketplace has. */
export const DEMO_COUPON_COUNT = DEMO_STORES.reduce((count, store) => count + store.offers.length, 0);

/** When an offer `days` from today ends: at India's midnight, never less than two hours away. */
function endOf(days: number): Date {
  const midnight = nextMarketMidnight() + days * 86_400_000;
  return new Date(Math.max(midnight, Date.now() + 2 * 3_600_000));
}

/** A demo merchant's account, then its store saved as the merchant's first save would (SaveStore). */
async function demoMerchant(tx: Transaction, store: DemoStore, index: number, logo: Buffer) {
  const merchantId = await insertDemoMerchant(tx.manager, {
    merchantName: store.name,
    brandName: store.name,
    industry: 'Beauty',
    category: 'Skin Care',
    address: store.city,
    email: `${store.user}@offers.localhost`,
    mobile: `98765100${String(index).padStart(2, '0')}`,
    siteUrl: store.site,
    userName: store.user,
    password: DEMO_MERCHANT_PASSWORD,
  });
  await saveStore(
    tx,
    new SaveStore(
      merchantId,
      {
        storeName: store.name,
        storeAddress: store.city,
        tagline: store.tagline,
        aboutDescription: store.about,
      },
      { merchantLogo: logo },
    ),
  );
  return merchantId;
}

/** A demo offer's code: the store's first letters and its percentage. */
const codeOf = (store: DemoStore, offer: DemoOffer) =>
  `${store.name
    .replace(/[^A-Za-z]/g, '')
    .slice(0, 6)
    .toUpperCase()}${offer.percentage}`;

/**
 * A dozen demo stores with their logos and live coupons across the eight categories, a few in
 * paid slots and a few ending today, so the home page, the lists and the store pages have
 * something to show. Each coupon is submitted as its merchant would (SubmitCoupon's work, with its
 * ad picture) and approved as an admin would (ApproveCoupon's work), so its events are the
 * commands' and the workers list it as they would an admin's approval; its approval is then dated
 * back, in turns, so the newest offers come from different stores. Not in production.
 */
export const demoCouponsSeed: Seed = {
  name: 'coupons',
  async run(dataSource: DataSource, environment) {
    if (environment.NODE_ENV === 'production') return undefined;
    // The pictures are drawn before the transaction, as uploads come before their commands.
    const logos = await Promise.all(DEMO_STORES.map((store) => demoLogo(store.name, store.hue)));
    const pictures = await Promise.all(
      DEMO_STORES.flatMap((store) => store.offers.map((offer) => ({ store, offer }))).map(
        ({ store, offer }, index) =>
          demoPicture(480, 320, `${offer.percentage}% OFF`, (store.hue + index * 17) % 360),
      ),
    );
    return runInTransaction(dataSource, async (tx) => {
      await tx.manager.query("SELECT pg_advisory_xact_lock(hashtext('seed:coupons'))");
      if ((await merchantIdByUserName(tx.manager, DEMO_STORES[0].user)) !== undefined) return undefined;
      const slots = await slotKinds(tx.manager);
      const categories = await categoriesInShopOrder(tx.manager);
      if (slots.length === 0) return 'skipped: no slots';
      const approvals: Array<{ couponId: number; hoursAgo: number }> = [];
      let index = 0;
      for (const [storeIndex, store] of DEMO_STORES.entries()) {
        const merchantId = await demoMerchant(tx, store, storeIndex, logos[storeIndex]!);
        for (const [offerIndex, offer] of store.offers.entries()) {
          const slot = slots.find((s) => s.kind === 'paid' && index < 4) ?? slots[0]!;
          const categoryId = categories.find((c) => c.name === offer.category)?.id;
          const { couponId } = await submitCoupon(
            tx,
            new SubmitCoupon(
              merchantId,
              {
                couponName: offer.title,
                couponCode: codeOf(store, offer),
                title: offer.title,
                description: offer.description,
                termsAndConditions: offer.terms,
                percentage: offer.percentage,
                discountValue: offer.upTo,
                expiryDate: endOf(offer.days),
                requestedSlotId: slot.id,
                merchantUrl: store.site,
                categoryIds: categoryId === undefined ? [] : [categoryId],
              },
              pictures[index],
            ),
          );
          // Approved in turns, so the newest offers come from different stores.
          approvals.push({ couponId, hoursAgo: offerIndex * DEMO_STORES.length + storeIndex });
          index += 1;
        }
      }
      // The oldest approval first, so the events come in the order the coupons went live.
      for (const { couponId, hoursAgo } of approvals.sort((a, b) => b.hoursAgo - a.hoursAgo)) {
        await approveCoupon(tx, couponId);
        await backdateDemoApproval(tx.manager, couponId, hoursAgo);
      }
      return `${DEMO_COUPON_COUNT} live coupons of ${DEMO_STORES.length} stores (sign in as ${DEMO_STORES[0].user} / ${DEMO_MERCHANT_PASSWORD})`;
    });
  },
};
