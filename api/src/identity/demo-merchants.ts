import type { EntityManager } from 'typeorm';
import { hashPassword } from './passwords.js';
import { assignMerchantSlug } from './queries/merchant-slugs.js';
import { registerReferralCode, unusedReferralCode } from './referral-codes.js';

/** A demo merchant's account: what its registration form would hold. */
export interface DemoMerchant {
  merchantName: string;
  brandName: string;
  industry: string;
  category: string;
  address: string;
  email: string;
  mobile: string;
  siteUrl: string;
  userName: string;
  password: string;
}

/**
 * A demo merchant's account as registering and confirming its email would leave it: its referral
 * code registered and its page's address assigned. Only the demo seeds make accounts this way.
 */
export async function insertDemoMerchant(manager: EntityManager, merchant: DemoMerchant): Promise<number> {
  const referralCode = await unusedReferralCode(manager);
  const [row] = await manager.query(
    `INSERT INTO merchants (merchant_name, brand_name, industry, category, address, email, mobile, merchant_url,
                            user_name, password_hash, referral_code, referred_by_code, referred_by_type,
                            is_email_confirmed)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'OFFERS', 'merchant', true)
     RETURNING id`,
    [
      merchant.merchantName,
      merchant.brandName,
      merchant.industry,
      merchant.category,
      merchant.address,
      merchant.email,
      merchant.mobile,
      merchant.siteUrl,
      merchant.userName,
      await hashPassword(merchant.password),
      referralCode,
    ],
  );
  await registerReferralCode(manager, referralCode, 'merchant', row.id);
  await assignMerchantSlug(manager, row.id, {
    brandName: merchant.brandName,
    merchantName: merchant.merchantName,
  });
  return row.id as number;
}

/** The ids of the merchants of these user names (exactly as written), in one query. */
export async function demoMerchantIds(
  reader: Pick<EntityManager, 'query'>,
  userNames: string[],
): Promise<number[]> {
  const rows: Array<{ id: number }> = await reader.query(
    'SELECT id FROM merchants WHERE user_name = ANY($1)',
    [userNames],
  );
  return rows.map((row) => row.id);
}
