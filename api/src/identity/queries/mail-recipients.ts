import type { EntityManager } from 'typeorm';

type Reader = Pick<EntityManager, 'query'>;

/** Whom a mail goes to: the account's address, the name it greets, the language it is written in. */
export interface MailRecipient {
  email: string;
  name: string;
  language: string;
}

/** Shoppers as mails address them, by id, in one statement (shoppers that do not exist are left out). */
export async function shopperRecipients(
  reader: Reader,
  userIds: readonly number[],
): Promise<Map<number, MailRecipient>> {
  if (userIds.length === 0) return new Map();
  const rows: Array<MailRecipient & { id: number }> = await reader.query(
    'SELECT id, email, user_name AS name, language FROM users WHERE id = ANY($1::int[])',
    [userIds],
  );
  return new Map(rows.map(({ id, ...recipient }) => [id, recipient]));
}

/**
 * Merchants as mails address them, by id, in one statement. A store without an account (a network
 * advertiser's) has no address and is left out: nobody reads its mail.
 */
export async function merchantRecipients(
  reader: Reader,
  merchantIds: readonly number[],
): Promise<Map<number, MailRecipient>> {
  if (merchantIds.length === 0) return new Map();
  const rows: Array<MailRecipient & { id: number }> = await reader.query(
    `SELECT id, email, merchant_name AS name, language FROM merchants
     WHERE id = ANY($1::int[]) AND email IS NOT NULL`,
    [merchantIds],
  );
  return new Map(rows.map(({ id, ...recipient }) => [id, recipient]));
}

/** Every admin, oldest account first, as notices to the back-office's team address them. */
export function adminRecipients(reader: Reader): Promise<Array<{ email: string; username: string }>> {
  return reader.query('SELECT email, username FROM admins ORDER BY id');
}

/** The shopper accounts of these addresses (case ignored), by lower-cased address, in one statement. */
export async function shopperIdsByEmail(
  reader: Reader,
  emails: readonly string[],
): Promise<Map<string, number>> {
  if (emails.length === 0) return new Map();
  const rows: Array<{ email: string; id: number }> = await reader.query(
    'SELECT lower(email) AS email, id FROM users WHERE lower(email) = ANY($1::text[])',
    [emails.map((email) => email.toLowerCase())],
  );
  return new Map(rows.map(({ email, id }) => [email, id]));
}
