import { randomInt } from 'node:crypto';
import { BadRequestException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { HOUSE_REFERRAL_CODE, REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH } from '../rules/accounts.js';

export type ReferralOwner = 'user' | 'merchant';

function randomCode(): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i += 1)
    code += REFERRAL_CODE_ALPHABET[randomInt(REFERRAL_CODE_ALPHABET.length)];
  return code;
}

/** A code nobody holds yet (31^8 codes: a clash is rare, and the table's key settles a race). */
export async function unusedReferralCode(manager: EntityManager): Promise<string> {
  for (;;) {
    const code = randomCode();
    const taken = await manager.query('SELECT 1 FROM referral_codes WHERE code = $1', [code]);
    if (taken.length === 0) return code;
  }
}

export async function registerReferralCode(
  manager: EntityManager,
  code: string,
  owner: ReferralOwner,
  ownerId: number,
): Promise<void> {
  await manager.query('INSERT INTO referral_codes (code, owner_type, owner_id) VALUES ($1, $2, $3)', [
    code,
    owner,
    ownerId,
  ]);
}

/** Normalises a referral code as typed by a person; undefined when empty. */
export function normaliseReferralCode(code: string | undefined | null): string | undefined {
  const trimmed = code?.trim().toUpperCase();
  return trimmed ? trimmed : undefined;
}

/** Whether the code is the house code or one a user or merchant holds. */
export async function referralCodeExists(manager: EntityManager, code: string): Promise<boolean> {
  if (code === HOUSE_REFERRAL_CODE) return true;
  const found = await manager.query('SELECT 1 FROM referral_codes WHERE code = $1', [code]);
  return found.length > 0;
}

/** The code a registration is credited to: the one given (it must exist) or the house code. */
export async function referrerCode(
  manager: EntityManager,
  given: string | undefined,
  refusal: { message: string; field: string; unknown: string },
): Promise<string> {
  const code = normaliseReferralCode(given) ?? HOUSE_REFERRAL_CODE;
  if (!(await referralCodeExists(manager, code))) {
    throw new BadRequestException({
      statusCode: 400,
      message: refusal.message,
      errors: { [refusal.field]: [refusal.unknown] },
    });
  }
  return code;
}
