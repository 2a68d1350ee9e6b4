import { randomBytes } from 'node:crypto';
import { CLICK_ID } from '../rules/clicks.js';

/** Milliseconds since 1970 fit in 6 bytes until the year 10889. */
const TIME_BYTES = 6;
/** 80 random bits: no one guesses another shopper's click, even knowing its millisecond. */
const RANDOM_BYTES = 10;

/**
 * A new click id: the click's time in milliseconds (big-endian) and random bytes, as 22 URL-safe
 * characters. The time in the id names the partition its row is in, so a postback's lookup reads
 * one month's index rather than every month's.
 */
export function newClickId(at: Date): string {
  const bytes = Buffer.alloc(TIME_BYTES + RANDOM_BYTES);
  bytes.writeUIntBE(at.getTime(), 0, TIME_BYTES);
  randomBytes(RANDOM_BYTES).copy(bytes, TIME_BYTES);
  return bytes.toString('base64url');
}

/** The time a click id was made at, or null when the text is not a click id. */
export function clickTimeOf(id: unknown): Date | null {
  if (typeof id !== 'string' || !CLICK_ID.test(id)) return null;
  const bytes = Buffer.from(id, 'base64url');
  if (bytes.length !== TIME_BYTES + RANDOM_BYTES) return null;
  return new Date(bytes.readUIntBE(0, TIME_BYTES));
}
