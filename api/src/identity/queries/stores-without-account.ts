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

/** The two merchants of a claim, locked in id order: whether each has an account, its email confirmed. */
export async function lockClaim(
  manager: EntityManager,
  storeId: number,
  merchantId: number,
): Promise<Map<number, { hasAccount: boolean; emailConfirmed: boolean }>> {
  const rows: Array<{ id: number; has_account: boolean; is_email_confirmed: boolean }> = await manager.query(
    `SELECT id, user_name IS NOT NULL AS has_account, is_email_confirmed
     FROM merchants WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE`,
    [[storeId, merchantId]],
  );
  return new Map(
    rows.map((row) => [row.id, { hasAccount: row.has_account, emailConfirmed: row.is_email_confirmed }]),
  );
}

/**
 * Moves a registered merchant's account (sign-in names, password, email, mobile, referral code,
 * language, confirmation and profile) onto a store without an account. The emptied row is left
 * without an account and hidden; its sessions end, so the merchant signs in again to the store.
 */
export async function moveAccountToStore(
  manager: EntityManager,
  storeId: number,
  merchantId: number,
): Promise<void> {
  const account = `user_name, password_hash, email, mobile, referral_code, referred_by_code, referred_by_type,
    is_email_confirmed, email_confirmation_expires_at, language, merchant_name, industry, category, address`;
  const [[moved]] = await manager.query(
    `UPDATE merchants m SET user_name = NULL, password_hash = NULL, email = NULL, mobile = NULL,
            referral_code = NULL, store_hidden = true
     FROM (SELECT ${account} FROM merchants WHERE id = $1) old
     WHERE m.id = $1
     RETURNING ${account
       .split(',')
       .map((column) => `old.${column.trim()}`)
       .join(', ')}`,
    [merchantId],
  );
  await manager.query(
    `UPDATE merchants SET user_name = $2, password_hash = $3, email = $4, mobile = $5, referral_code = $6,
            referred_by_code = $7, referred_by_type = $8, is_email_confirmed = $9,
            email_confirmation_expires_at = $10, language = $11, merchant_name = $12, industry = $13,
            category = $14, address = $15, updated_at = now()
     WHERE id = $1`,
    [
      storeId,
      moved.user_name,
      moved.password_hash,
      moved.email,
      moved.mobile,
      moved.referral_code,
      moved.referred_by_code,
      moved.referred_by_type,
      moved.is_email_confirmed,
      moved.email_confirmation_expires_at,
      moved.language,
      moved.merchant_name,
      moved.industry,
      moved.category,
      moved.address,
    ],
  );
  await manager.query(
    "UPDATE referral_codes SET owner_id = $2 WHERE owner_type = 'merchant' AND owner_id = $1",
    [merchantId, storeId],
  );
  await manager.query("DELETE FROM sessions WHERE role = 'merchant' AND account_id = $1", [merchantId]);
}
