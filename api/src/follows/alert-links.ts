import { createHmac } from 'node:crypto';
import { isTokenGenuine } from '../engagement/newsletter-tokens.js';

/**
 * The unsubscribe link of a store alert names the follower and the store, signed over them and the
 * follower's address: nothing is stored, the link works from any mail client without signing in,
 * and it stops working if the account's address changes.
 */
export function storeAlertUnsubscribeToken(
  secret: string,
  userId: number,
  merchantId: number,
  email: string,
) {
  const payload = `${userId}.${merchantId}`;
  return `${payload}.${sign(secret, payload, email)}`;
}

export interface StoreAlertLink {
  userId: number;
  merchantId: number;
  /** Checks the signature against the follower's current address. */
  isGenuine(secret: string, email: string): boolean;
}

/** The follower and store a link names, if it has the link's shape (ids are PostgreSQL integers). */
export function readStoreAlertLink(token: unknown): StoreAlertLink | undefined {
  if (typeof token !== 'string') return undefined;
  const match = /^(\d{1,10})\.(\d{1,10})\.([\w-]{43})$/.exec(token);
  if (!match) return undefined;
  const [userId, merchantId] = [Number(match[1]), Number(match[2])];
  if (userId > 2_147_483_647 || merchantId > 2_147_483_647) return undefined;
  return {
    userId,
    merchantId,
    isGenuine: (secret, email) => isTokenGenuine(sign(secret, `${userId}.${merchantId}`, email), match[3]),
  };
}

function sign(secret: string, payload: string, email: string): string {
  return createHmac('sha256', secret)
    .update(`store-alert-unsubscribe.${payload}.${email.toLowerCase()}`)
    .digest('base64url');
}
