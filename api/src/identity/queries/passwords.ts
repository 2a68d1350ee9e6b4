/** SQL of password changes and resets (users and merchants; the table is chosen by role). */
import type { EntityManager } from 'typeorm';

export const ACCOUNT_TABLE = { user: 'users', merchant: 'merchants' } as const;

export const PASSWORD_HASH = (table: string) =>
  `SELECT id, password_hash AS "passwordHash" FROM ${table} WHERE id = $1`;

export const PASSWORD_HASH_FOR_UPDATE = (table: string) =>
  `SELECT id, password_hash AS "passwordHash" FROM ${table} WHERE id = $1 FOR UPDATE`;

export const ACCOUNT_BY_EMAIL = (table: string) => `SELECT id FROM ${table} WHERE lower(email) = lower($1)`;

export const SET_PASSWORD_HASH = (table: string) => `UPDATE ${table} SET password_hash = $2 WHERE id = $1`;

/** The reset mail's recipient and the hash its link is bound to. */
const RESET_RECIPIENT = {
  user: `SELECT email, user_name AS name, language, password_hash AS "passwordHash" FROM users WHERE id = $1`,
  merchant: `SELECT email, merchant_name AS name, language, password_hash AS "passwordHash" FROM merchants WHERE id = $1`,
} as const;

/** A password mail's recipient (name, address, language) and the hash a reset link is bound to. */
export interface PasswordMailRecipient {
  email: string;
  name: string;
  language: string;
  passwordHash: string;
}

/** The account of this role and id as a password mail reads it, or undefined. */
export async function passwordMailRecipient(
  reader: Pick<EntityManager, 'query'>,
  role: 'user' | 'merchant',
  id: number,
): Promise<PasswordMailRecipient | undefined> {
  const [account]: PasswordMailRecipient[] = await reader.query(RESET_RECIPIENT[role], [id]);
  return account;
}
