import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Confirmation links carry `merchantId.expiresAt.signature`, the signature covering the email
 * address too: nothing secret is stored or written to the event log, a link stops working when it
 * expires or when the address changes, and the mailer can rebuild the link from the event.
 */
export function emailConfirmationToken(
  secret: string,
  merchantId: number,
  email: string,
  expiresAt: Date,
): string {
  const payload = `${merchantId}.${expiresAt.getTime()}`;
  return `${payload}.${sign(secret, payload, email)}`;
}

export function readEmailConfirmationToken(
  token: string,
): { merchantId: number; expiresAt: Date } | undefined {
  const match = /^(\d{1,10})\.(\d{1,15})\.[\w-]{43}$/.exec(token);
  const merchantId = Number(match?.[1]);
  // Ids are PostgreSQL integers: anything larger names no merchant.
  if (!match || merchantId > 2_147_483_647) return undefined;
  return { merchantId, expiresAt: new Date(Number(match[2])) };
}

export function isEmailConfirmationTokenValid(
  secret: string,
  token: string,
  email: string,
  now = new Date(),
) {
  const parsed = readEmailConfirmationToken(token);
  if (!parsed || parsed.expiresAt <= now) return false;
  const expected = Buffer.from(emailConfirmationToken(secret, parsed.merchantId, email, parsed.expiresAt));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function sign(secret: string, payload: string, email: string): string {
  return createHmac('sha256', secret).update(`${payload}.${email.toLowerCase()}`).digest('base64url');
}
