import { createHash, createHmac } from 'node:crypto';

/**
 * The links of a deletion request's mails. Each token is derived from the request (its id and
 * time) with SESSION_SECRET, so the mailer can put it in the mail from the event's ids alone and
 * no event holds it; the table keeps only its SHA-256 digest, which is what a link is looked up by.
 */
export type DeletionLinkPurpose = 'confirm' | 'cancel';

export function deletionLinkToken(
  secret: string,
  purpose: DeletionLinkPurpose,
  requestId: string,
  requestedAt: Date,
): string {
  const signature = createHmac('sha256', secret)
    .update(`account-deletion.${purpose}.${requestId}.${requestedAt.getTime()}`)
    .digest('base64url');
  return `${requestId}.${signature}`;
}

export const tokenDigest = (token: string) => createHash('sha256').update(token).digest('hex');

/** Whether a value has the shape of a link's token at all, before any lookup. */
export const isDeletionTokenShaped = (token: unknown): token is string =>
  typeof token === 'string' && /^\d{1,18}\.[\w-]{43}$/.test(token);
