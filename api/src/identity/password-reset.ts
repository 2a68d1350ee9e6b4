import { createHmac, timingSafeEqual } from 'node:crypto';
import type { RecoverableRole } from '../rules/accounts.js';

/**
 * Password reset links carry `role.accountId.expiresAt.signature`. The signature covers the
 * account's current password hash, so the link is single-use without storing anything: resetting
 * (or changing) the password changes the hash (argon2 salts every hash anew) and every link made
 * before stops working. Nothing secret is in the event log; the mailer signs the link from the
 * event and the account row, as it does the merchant's email confirmation.
 */
export function passwordResetToken(
  secret: string,
  role: RecoverableRole,
  accountId: number,
  passwordHash: string,
  expiresAt: Date,
): string {
  const payload = `${role === 'user' ? 'u' : 'm'}.${accountId}.${expiresAt.getTime()}`;
  const signature = createHmac('sha256', secret)
    .update(`password-reset.${payload}.${passwordHash}`)
    .digest('base64url');
  return `${payload}.${signature}`;
}

export function readPasswordResetToken(
  token: string,
): { role: RecoverableRole; accountId: number; expiresAt: Date } | undefined {
  const match = /^([um])\.(\d{1,10})\.(\d{1,15})\.[\w-]{43}$/.exec(token);
  const accountId = Number(match?.[2]);
  if (!match || accountId > 2_147_483_647) return undefined;
  return {
    role: match[1] === 'u' ? 'user' : 'merchant',
    accountId,
    expiresAt: new Date(Number(match[3])),
  };
}

export function isPasswordResetTokenValid(
  secret: string,
  token: string,
  passwordHash: string,
  now = new Date(),
): boolean {
  const parsed = readPasswordResetToken(token);
  if (!parsed || parsed.expiresAt <= now) return false;
  const expected = Buffer.from(
    passwordResetToken(secret, parsed.role, parsed.accountId, passwordHash, parsed.expiresAt),
  );
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
