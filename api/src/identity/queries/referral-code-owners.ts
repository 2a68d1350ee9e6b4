import type { EntityManager } from 'typeorm';

/**
 * The shopper holding the referral code (already normalised), or undefined: a merchant's code, the
 * house code or no code at all credits no shopper.
 */
export async function shopperOfReferralCode(
  reader: Pick<EntityManager, 'query'>,
  code: string,
): Promise<number | undefined> {
  const [owner]: Array<{ id: number }> = await reader.query(
    "SELECT owner_id AS id FROM referral_codes WHERE code = $1 AND owner_type = 'user'",
    [code],
  );
  return owner?.id;
}
