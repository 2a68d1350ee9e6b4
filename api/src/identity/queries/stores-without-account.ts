import type { EntityManager } from 'typeorm';
import { assignMerchantSlug } from './merchant-slugs.js';

/**
 * A store without an account (see FeedAdvertisers1764930000000): a merchant row with a name and a
 * site but no user name, password, email, mobile or referral code, so nobody signs in to it and
 * no mail is sent to it. It gets its store address like any merchant. Returns its merchant id.
 */
export async function insertStoreWithoutAccount(
  manager: EntityManager,
  store: { name: string; siteUrl: string },
): Promise<{ merchantId: number; slug: string }> {
  const [row] = await manager.query(
    `INSERT INTO merchants (merchant_name, brand_name, industry, category, address, merchant_url,
                            referred_by_code, referred_by_type, is_email_confirmed)
     VALUES ($1, $1, '', '', '', $2, '', 'merchant', false)
     RETURNING id`,
    [store.name, store.siteUrl],
  );
  const slug = await assignMerchantSlug(manager, row.id, { brandName: store.name, merchantName: store.name });
  return { merchantId: row.id, slug };
}

/** Whether the merchant exists (with an account or not). */
export async function merchantExists(
  manager: Pick<EntityManager, 'query'>,
  merchantId: number,
): Promise<boolean> {
  const rows = await manager.query('SELECT 1 FROM merchants WHERE id = $1', [merchantId]);
  return rows.length > 0;
}
