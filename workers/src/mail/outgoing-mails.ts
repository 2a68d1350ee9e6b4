import type { Language } from '@offers/api/rules/engagement';
import type { EntityManager } from 'typeorm';
import type { RenderedMail } from './templates.js';

/** Notified when outgoing mails are committed, so a sender wakes at once instead of at its next poll. */
export const OUTGOING_MAIL_CHANNEL = 'outgoing_mail';

export interface OutgoingMail {
  /** Event id (or campaign id) and recipient: a second mail with the same key is never recorded. */
  idempotencyKey: string;
  template: string;
  recipient: string;
  language: Language;
  content: RenderedMail;
  headers?: Record<string, string>;
  campaignId?: number;
}

/**
 * Records mails to send, in the caller's transaction. A key already recorded (the same event
 * delivered again, a campaign batch run twice) is skipped. Returns how many were new.
 */
export async function recordOutgoingMails(manager: EntityManager, mails: OutgoingMail[]): Promise<number> {
  if (mails.length === 0) return 0;
  const inserted = await manager.query(
    `INSERT INTO outgoing_mails (idempotency_key, template, recipient, language, subject, text_body, html_body,
                                 headers, campaign_id)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                          $8::jsonb[], $9::int[])
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING id`,
    [
      mails.map((mail) => mail.idempotencyKey),
      mails.map((mail) => mail.template),
      mails.map((mail) => mail.recipient),
      mails.map((mail) => mail.language),
      mails.map((mail) => mail.content.subject),
      mails.map((mail) => mail.content.text),
      mails.map((mail) => mail.content.html),
      mails.map((mail) => JSON.stringify(mail.headers ?? {})),
      mails.map((mail) => mail.campaignId ?? null),
    ],
  );
  if (inserted.length > 0) await manager.query(`SELECT pg_notify('${OUTGOING_MAIL_CHANNEL}', '')`);
  return inserted.length;
}
