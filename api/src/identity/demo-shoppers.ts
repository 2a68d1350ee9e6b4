import type { EntityManager } from 'typeorm';
import { hashPassword } from './passwords.js';
import { registerReferralCode, unusedReferralCode } from './referral-codes.js';

type Manager = Pick<EntityManager, 'query'>;

/** A shopper the demo seeds make, referred by the house code. */
export interface DemoShopper {
  userName: string;
  email: string;
  mobileNumber: string;
  password: string;
  address: string;
}

/** Whether a shopper signs in with this address (already in lower case). */
export async function shopperWithEmailExists(reader: Manager, email: string): Promise<boolean> {
  const rows: unknown[] = await reader.query('SELECT 1 FROM users WHERE lower(email) = $1', [email]);
  return rows.length > 0;
}

/** The id of the shopper with this address (lower case), or undefined. */
export async function shopperIdByEmail(reader: Manager, email: string): Promise<number | undefined> {
  const [row]: Array<{ id: number }> = await reader.query('SELECT id FROM users WHERE lower(email) = $1', [
    email,
  ]);
  return row?.id;
}

/** Adds the demo shopper with a referral code of its own; answers its id. Not in production. */
export async function addDemoShopper(manager: EntityManager, shopper: DemoShopper): Promise<number> {
  const referralCode = await unusedReferralCode(manager);
  const [user]: Array<{ id: number }> = await manager.query(
    `INSERT INTO users (user_name, email, mobile_number, password_hash, referral_code, referred_by, address)
     VALUES ($1, $2, $3, $4, $5, 'OFFERS', $6) RETURNING id`,
    [
      shopper.userName,
      shopper.email,
      shopper.mobileNumber,
      await hashPassword(shopper.password),
      referralCode,
      shopper.address,
    ],
  );
  await registerReferralCode(manager, referralCode, 'user', user!.id);
  return user!.id;
}

/** The merchants signing in by these user names (exactly as given), by id. */
export async function merchantIdsByUserNames(
  reader: Manager,
  userNames: readonly string[],
): Promise<number[]> {
  const rows: Array<{ id: number }> = await reader.query(
    'SELECT id FROM merchants WHERE user_name = ANY($1) ORDER BY id',
    [userNames],
  );
  return rows.map((row) => row.id);
}
