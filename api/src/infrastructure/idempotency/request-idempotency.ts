import { createHash } from 'node:crypto';
import { BadRequestException } from '@nestjs/common';
import { IDEMPOTENCY } from '../../rules/http.js';
import type { StoredAnswer } from './idempotency-store.js';

/** A multipart form as received, in order: each field's value, or a digest of each file's bytes. */
export type ReceivedParts = Array<[name: string, value: string]>;

/**
 * Set on a multipart request that carries an Idempotency-Key: its body is read by the handler
 * (`readForm`), which hands the parts over here before anything is changed.
 */
export interface IdempotentRequest {
  idempotency?: { claimForm(parts: ReceivedParts): Promise<void> };
}

/** Thrown where a retry is answered with the stored first answer instead of running again. */
export class ReplayAnswer extends Error {
  constructor(readonly answer: StoredAnswer) {
    super('replayed');
  }
}

const VISIBLE = /^[\x21-\x7e]+$/;

/**
 * The key a request carries, or undefined without one. The draft writes it as a structured-field
 * string (`"8e03978e-..."`), Stripe bare: both are read. Anything else is a 400.
 */
export function readIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const raw = (Array.isArray(header) ? header.join(',') : header).trim();
  const key = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (key.length === 0 || key.length > IDEMPOTENCY.maxLength || !VISIBLE.test(key)) {
    throw new BadRequestException({ statusCode: 400, message: IDEMPOTENCY.messages.invalid });
  }
  return key;
}

/** Objects with their keys in one order, so that the same JSON sent differently spaced or ordered matches. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** What makes two requests the same one: method, address with its query, and body. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([method, url, canonical(body ?? null)]))
    .digest('base64url');
}

export const fileDigest = (bytes: Buffer) => `file:${createHash('sha256').update(bytes).digest('base64url')}`;
