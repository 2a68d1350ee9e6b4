import argon2 from 'argon2';

// OWASP's argon2id profile: 19 MiB, two passes, one lane.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

let decoy: Promise<string> | undefined;

/**
 * Checks a password against its hash. Without a hash (no such account) it still spends the time
 * of a real check, so a wrong password and an unknown account cannot be told apart by timing.
 */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  decoy ??= hashPassword('decoy password that matches no account');
  const target = hash ?? (await decoy);
  const matches = await argon2.verify(target, password).catch(() => false);
  return hash !== undefined && matches;
}
