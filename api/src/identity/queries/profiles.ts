import type { DataSource } from 'typeorm';
import type { MerchantProfile, UserProfile } from './answers.js';

type Reader = Pick<DataSource, 'query'>;

export async function userProfile(reader: Reader, userId: number): Promise<UserProfile> {
  const [profile] = await reader.query(
    `SELECT user_name AS "userName", mobile_number AS "mobileNumber", email AS "emailAddress",
            address, referral_code AS "referralCode", language
     FROM users WHERE id = $1`,
    [userId],
  );
  return profile;
}

export async function merchantProfile(reader: Reader, merchantId: number): Promise<MerchantProfile> {
  const [profile] = await reader.query(
    `SELECT id AS "merchantId", merchant_name AS "merchantName", brand_name AS "brandName",
            industry, category, address, email, mobile, merchant_url AS "merchantUrl",
            user_name AS "userName", referral_code AS "referralCode",
            is_email_confirmed AS "isEmailConfirmed", registered_on AS "registeredOn", language
     FROM merchants WHERE id = $1`,
    [merchantId],
  );
  return profile && { ...profile, registeredOn: new Date(profile.registeredOn).toISOString() };
}

/** What a shopper's sign-in answers about the account. */
export async function signedInUser(reader: Reader, userId: number) {
  const [user] = await reader.query(
    'SELECT id, user_name AS "userName", email, mobile_number AS "mobileNumber" FROM users WHERE id = $1',
    [userId],
  );
  return user as { id: number; userName: string; email: string; mobileNumber: string };
}

/** What a merchant's sign-in answers about the account. */
export async function signedInMerchant(reader: Reader, merchantId: number) {
  const [merchant] = await reader.query(
    `SELECT id AS "merchantId", merchant_name AS "merchantName", email, mobile, referral_code AS "referralCode"
     FROM merchants WHERE id = $1`,
    [merchantId],
  );
  return merchant as {
    merchantId: number;
    merchantName: string;
    email: string;
    mobile: string;
    referralCode: string;
  };
}

/** What an admin's sign-in answers about the account. */
export async function signedInAdmin(reader: Reader, adminId: number) {
  const [admin] = await reader.query('SELECT id, username, email FROM admins WHERE id = $1', [adminId]);
  return admin as { id: number; username: string; email: string };
}

/** The merchant signing in by this user name (its case aside), or undefined. */
export async function merchantIdByUserName(reader: Reader, userName: string): Promise<number | undefined> {
  const [row] = await reader.query('SELECT id FROM merchants WHERE lower(user_name) = lower($1)', [userName]);
  return row?.id;
}

/** The admin signing in by this username (its case aside), or undefined. */
export async function adminIdByUserName(reader: Reader, userName: string): Promise<number | undefined> {
  const [row] = await reader.query('SELECT id FROM admins WHERE lower(username) = lower($1)', [userName]);
  return row?.id;
}

/** Admins' usernames by id (for records that say which admin did something). */
export async function adminNames(reader: Reader, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows: Array<{ id: number; username: string }> = await reader.query(
    'SELECT id, username FROM admins WHERE id = ANY($1::int[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.username]));
}

/** Shoppers' names by id (for queues that say whose item it is). */
export async function shopperNames(reader: Reader, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows: Array<{ id: number; name: string }> = await reader.query(
    'SELECT id, user_name AS name FROM users WHERE id = ANY($1::int[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

/**
 * Whether a merchant may report purchases: confirmed (its email confirmed, or a store without an
 * account, which nobody signs in to) and not hidden by an admin. Undefined when there is none.
 */
export async function merchantStanding(
  reader: Reader,
  merchantId: number,
): Promise<{ confirmed: boolean; hidden: boolean } | undefined> {
  const [row] = await reader.query(
    `SELECT (is_email_confirmed OR user_name IS NULL) AS confirmed, store_hidden AS hidden
     FROM merchants WHERE id = $1`,
    [merchantId],
  );
  return row;
}

/** Who referred the shopper, if anyone with an account did (the house code owns none). */
export async function referrerOfShopper(
  reader: Reader,
  userId: number,
): Promise<{ referrerType: 'user' | 'merchant'; referrerId: number } | undefined> {
  const [row] = await reader.query(
    `SELECT c.owner_type AS "referrerType", c.owner_id AS "referrerId"
     FROM users u JOIN referral_codes c ON c.code = u.referred_by
     WHERE u.id = $1 AND c.owner_type IN ('user', 'merchant')`,
    [userId],
  );
  return row;
}

/**
 * What an erasure finds the person's other rows by: the account's email and number, as stored
 * now. Undefined for no such account, or a merchant account without an email (a store that never
 * had an account, or one already forgotten).
 */
export async function accountContact(
  reader: Reader,
  kind: 'shopper' | 'merchant',
  id: number,
): Promise<{ email: string; mobile: string | null } | undefined> {
  const [row] = await reader.query(
    kind === 'shopper'
      ? 'SELECT email, mobile_number AS mobile FROM users WHERE id = $1'
      : 'SELECT email, mobile FROM merchants WHERE id = $1 AND email IS NOT NULL',
    [id],
  );
  return row;
}
