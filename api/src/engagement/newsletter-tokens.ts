import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Newsletter links carry the subscriber id and an HMAC over it and the address, so nothing secret
 * is stored or written to the event log and the mailer rebuilds them from the subscriber's row.
 * A confirmation link also names the moment its mail was requested: a newer confirmation mail
 * replaces it. An unsubscribe link works for as long as the address is subscribed.
 */
export function newsletterConfirmToken(secret: string, subscriberId: number, email: string, sentAt: Date) {
  const payload = `${subscriberId}.${sentAt.getTime()}`;
  return `${payload}.${sign(secret, 'confirm', payload, email)}`;
}

export function newsletterUnsubscribeToken(secret: string, subscriberId: number, email: string) {
  const payload = String(subscriberId);
  return `${payload}.${sign(secret, 'unsubscribe', payload, email)}`;
}

/** The subscriber a token names (ids are PostgreSQL integers), before its signature is checked. */
export function tokenSubscriberId(token: unknown): number | undefined {
  if (typeof token !== 'string') return undefined;
  const match = /^(\d{1,10})(\.\d{1,15})?\.[\w-]{43}$/.exec(token);
  const id = Number(match?.[1]);
  return match && id <= 2_147_483_647 ? id : undefined;
}

export function isTokenGenuine(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sign(secret: string, purpose: string, payload: string, email: string): string {
  return createHmac('sha256', secret)
    .update(`newsletter-${purpose}.${payload}.${email.toLowerCase()}`)
    .digest('base64url');
}
