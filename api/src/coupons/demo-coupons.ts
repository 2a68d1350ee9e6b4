import type { DataSource, EntityManager } from 'typeorm';
import { demoPicture } from '../content/demo-content.js';
import type { Seed } from '../database/seeds/index.js';
import { appendToOutbox } from '../events/unit-of-work.js';
import { hashPassword } from '../identity/passwords.js';
import { assignMerchantSlug } from '../identity/queries/merchant-slugs.js';
import { registerReferralCode, unusedReferralCode } from '../identity/referral-codes.js';
import { storeImage } from '../media/media.js';
import { CATEGORIES } from '../rules/coupons.js';
import { CouponApproved } from './events/coupon-events.js';
import { takeSeat } from './queries/slot-seats.js';

/** The demo merchants' password; shown by `npm start` only in development. */
export const DEMO_MERCHANT_PASSWORD = 'Demo@2026';

const MERCHANTS = [
  { name: 'Nykaa Fashion Demo', user: 'demo-nykaa', site: 'https://nykaa.example.in', hue: 330 },
  { name: 'Mamaearth Demo', user: 'demo-mamaearth', site: 'https://mamaearth.example.in', hue: 140 },
  { name: 'Beardo Demo', user: 'demo-beardo', site: 'https://beardo.example.in', hue: 30 },
];

const OFFERS: Array<
  [title: string, percentage: number, value: number, category: (typeof CATEGORIES)[number]]
> = [
  ['Flat 40% off on face serums', 40, 400, 'Skin Care'],
  ['Buy 2 get 1 free on lipsticks', 33, 299, 'Makeup'],
  ['25% off onion hair oil', 25, 150, 'Hair Care'],
  ['Perfume minis at 50% off', 50, 500, 'Fragrance'],
  ['Bath & body combo for ₹499', 30, 250, 'Bath & Body'],
  ['Makeup brushes 35% off', 35, 200, 'Tools & Accessories'],
  ['Beard kit at 45% off', 45, 450, "Men's Grooming"],
  ['Organic ubtan face pack 20% off', 20, 100, 'Natural & Organic'],
  ['Sunscreen SPF 50 at 30% off', 30, 180, 'Skin Care'],
  ['Kajal and eyeliner duo 15% off', 15, 99, 'Makeup'],
  ['Anti-dandruff shampoo 2 for 1', 50, 350, 'Hair Care'],
  ['Oud attar 20% off', 20, 600, 'Fragrance'],
  ['Body lotion 1 litre at 40% off', 40, 320, 'Bath & Body'],
  ['Hair straightener ₹700 off', 28, 700, 'Tools & Accessories'],
  ['Charcoal face wash 35% off', 35, 120, "Men's Grooming"],
  ['Cold-pressed coconut oil 10% off', 10, 50, 'Natural & Organic'],
  ['Night cream 45% off', 45, 540, 'Skin Care'],
  ['Nail paint set 60% off', 60, 360, 'Makeup'],
];

async function demoMerchant(manager: EntityManager, merchant: (typeof MERCHANTS)[number], index: number) {
  const referralCode = await unusedReferralCode(manager);
  const [row] = await manager.query(
    `INSERT INTO merchants (merchant_name, brand_name, industry, category, address, email, mobile, merchant_url,
                            user_name, password_hash, referral_code, referred_by_code, referred_by_type,
                            is_email_confirmed)
     VALUES ($1, $1, 'Beauty', 'Skin Care', 'MG Road, Bengaluru', $2, $3, $4, $5, $6, $7, 'OFFERS', 'merchant', true)
     RETURNING id`,
    [
      merchant.name,
      `${merchant.user}@offers.localhost`,
      `98765100${String(index).padStart(2, '0')}`,
      merchant.site,
      merchant.user,
      await hashPassword(DEMO_MERCHANT_PASSWORD),
      referralCode,
    ],
  );
  await registerReferralCode(manager, referralCode, 'merchant', row.id);
  await assignMerchantSlug(manager, row.id, { brandName: merchant.name, merchantName: merchant.name });
  return row.id as number;
}

/**
 * Live coupons of three demo merchants across the eight categories, a few in paid slots, so the
 * home page, the lists and the top offers have something to show. Written with their approval
 * events, so the workers list them as they would an admin's approvals. Not in production.
 */
export const demoCouponsSeed: Seed = {
  name: 'coupons',
  async run(dataSource: DataSource, environment) {
    if (environment.NODE_ENV === 'production') return undefined;
    return dataSource.transaction(async (manager) => {
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('seed:coupons'))");
      const [{ present }] = await manager.query(
        'SELECT EXISTS (SELECT 1 FROM merchants WHERE user_name = $1) AS present',
        [MERCHANTS[0].user],
      );
      if (present) return undefined;
      const slots: Array<{ id: number; kind: string; capacity: number }> = await manager.query(
        'SELECT id, kind, capacity FROM slots ORDER BY id',
      );
      const categories: Array<{ id: number; name: string }> = await manager.query(
        'SELECT id, name FROM categories',
      );
      if (slots.length === 0) return 'skipped: no slots';
      const merchantIds: number[] = [];
      for (const [index, merchant] of MERCHANTS.entries())
        merchantIds.push(await demoMerchant(manager, merchant, index));
      const events: CouponApproved[] = [];
      for (const [index, [title, percentage, value, category]] of OFFERS.entries()) {
        const merchant = MERCHANTS[index % MERCHANTS.length];
        const merchantId = merchantIds[index % MERCHANTS.length];
        const slot = slots.find((s) => s.kind === 'paid' && index < 4) ?? slots[0];
        const imageId = await storeImage(
          manager,
          await demoPicture(480, 320, `${percentage}% OFF`, (merchant.hue + index * 17) % 360),
          'adPost',
        );
        const [coupon] = await manager.query(
          `INSERT INTO coupons (merchant_id, coupon_name, coupon_code, title, description, terms_and_conditions,
                                percentage, discount_value, expiry_date, requested_slot_id, slot_id, merchant_url,
                                ad_image_id, status, approved_at)
           VALUES ($1, $2, $3, $2, $4, 'Valid once per customer on orders above ₹499.', $5, $6,
                   now() + make_interval(days => $7), $8, $8, $9, $10, 'live', now() - make_interval(hours => $11))
           RETURNING id, expiry_date`,
          [
            merchantId,
            title,
            `DEMO${String(index + 1).padStart(2, '0')}${percentage}`,
            `${title} at ${merchant.name}. Apply the code at checkout.`,
            percentage,
            value,
            10 + ((index * 7) % 50),
            slot.id,
            merchant.site,
            imageId,
            index,
          ],
        );
        // Live coupons hold a seat of their slot, as an approval gives them.
        await takeSeat(manager, slot, coupon.id, coupon.expiry_date);
        const categoryId = categories.find((c) => c.name === category)?.id;
        if (categoryId) {
          await manager.query('INSERT INTO coupon_categories (coupon_id, category_id) VALUES ($1, $2)', [
            coupon.id,
            categoryId,
          ]);
        }
        events.push(new CouponApproved(String(coupon.id), { merchantId, slotId: slot.id, title }));
      }
      await appendToOutbox(manager, events);
      return `${events.length} live coupons of ${MERCHANTS.length} merchants (sign in as ${MERCHANTS[0].user} / ${DEMO_MERCHANT_PASSWORD})`;
    });
  },
};
