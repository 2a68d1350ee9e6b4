import type { EntityManager } from 'typeorm';

/**
 * Merchants written in one statement, for the benchmarks that need a hundred or a thousand stores
 * in place before they measure: registering each through its command would time the seeding.
 */

/**
 * Merchants numbered `first` to `first + count - 1`. In each text, `{n}` stands for the merchant's
 * number and `{n5}` / `{n9}` for it padded with zeros to 5 / 9 digits. All are confirmed, with a
 * password hash no password matches.
 */
export interface MerchantsInBulk {
  first: number;
  count: number;
  merchantName: string;
  brandName: string;
  address: string;
  email: string;
  mobile: string;
  siteUrl: string;
  userName: string;
  referralCode: string;
  /** The store's address under /store/, or null for a merchant without one. */
  slug: string | null;
}

/** A merchant written in bulk, as a listing or a store page shows it. */
export interface MerchantInBulk {
  id: number;
  merchantName: string;
  brandName: string;
  slug: string | null;
  siteUrl: string;
}

/** Writes the merchants; answers them in the order of their numbers. */
export async function seedMerchantsInBulk(
  manager: Pick<EntityManager, 'query'>,
  merchants: MerchantsInBulk,
): Promise<MerchantInBulk[]> {
  const text = (parameter: number) =>
    `replace(replace(replace($${parameter}::text, '{n5}', lpad(g::text, 5, '0')), '{n9}', lpad(g::text, 9, '0')), '{n}', g::text)`;
  const rows: MerchantInBulk[] = await manager.query(
    `INSERT INTO merchants (merchant_name, brand_name, industry, category, address, email, mobile, merchant_url,
                            user_name, password_hash, referral_code, referred_by_code, referred_by_type,
                            is_email_confirmed, slug)
     SELECT ${text(3)}, ${text(4)}, 'Retail', 'Shopping', ${text(5)}, ${text(6)}, ${text(7)}, ${text(8)}, ${text(9)},
            'not-a-password-hash', ${text(10)}, '', 'merchant', true, ${text(11)}
     FROM generate_series($1::int, $1::int + $2::int - 1) g
     ORDER BY g
     RETURNING id, merchant_name AS "merchantName", brand_name AS "brandName", slug, merchant_url AS "siteUrl"`,
    [
      merchants.first,
      merchants.count,
      merchants.merchantName,
      merchants.brandName,
      merchants.address,
      merchants.email,
      merchants.mobile,
      merchants.siteUrl,
      merchants.userName,
      merchants.referralCode,
      merchants.slug,
    ],
  );
  return rows.sort((a, b) => a.id - b.id);
}
