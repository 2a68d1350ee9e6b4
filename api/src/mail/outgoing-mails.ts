/**
 * The store of outgoing mails: every mail the product sends is a row here first, recorded in the
 * transaction of the change it tells about, and sent later by the workers' sender. The api's
 * features ask `queries/` what was recorded; the workers write through these functions.
 */
import type { EntityManager } from 'typeorm';
import type { Language } from '../rules/engagement.js';

type Writer = Pick<EntityManager, 'query'>;

/** Notified when outgoing mails are committed, so a sender wakes at once instead of at its next poll. */
export const OUTGOING_MAIL_CHANNEL = 'outgoing_mail';

/** A mail as its template renders it, in its recipient's language. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface OutgoingMail {
  /** Event id (or campaign id) and recipient: a second mail with the same key is never recorded. */
  idempotencyKey: string;
  template: string;
  recipient: string;
  language: Language;
  content: RenderedMail;
  headers?: Record<string, string>;
  campaignId?: number;
  /**
   * What the template was rendered with: kept after the mail is sent (its bodies are not), less
   * any parameter that acts (see {@link parametersWithoutSecrets}).
   */
  parameters?: object;
}

/** A parameter whose name says it is a secret, or a link that carries a token, acts for its holder. */
const SECRET_NAME = /token|secret|password/i;
const ACTING_LINK = /[?&#](token|key|code|signature)=/i;

/**
 * The parameters as a sent mail keeps them: links that act (password reset, email and
 * newsletter confirmation, unsubscribe: each carries a token) and anything named like a secret
 * are left out, at any depth; what remains says what the mail told, not how to act on it.
 */
export function parametersWithoutSecrets(parameters: unknown): unknown {
  if (Array.isArray(parameters)) return parameters.map(parametersWithoutSecrets);
  if (parameters === null || typeof parameters !== 'object') return parameters;
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (SECRET_NAME.test(name)) continue;
    if (typeof value === 'string' && ACTING_LINK.test(value)) continue;
    kept[name] = parametersWithoutSecrets(value);
  }
  return kept;
}

/**
 * Records mails to send, in the caller's transaction. A key already recorded (the same event
 * delivered again, a campaign batch run twice) is skipped. Returns how many were new.
 */
export async function recordOutgoingMails(manager: Writer, mails: OutgoingMail[]): Promise<number> {
  if (mails.length === 0) return 0;
  const inserted = await manager.query(
    `INSERT INTO outgoing_mails (idempotency_key, template, recipient, language, subject, text_body, html_body,
                                 headers, campaign_id, parameters)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                          $8::jsonb[], $9::int[], $10::jsonb[])
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
      mails.map((mail) => JSON.stringify(parametersWithoutSecrets(mail.parameters ?? {}))),
    ],
  );
  if (inserted.length > 0) await manager.query(`SELECT pg_notify('${OUTGOING_MAIL_CHANNEL}', '')`);
  return inserted.length;
}

/** A recorded mail as the sender takes it. */
export interface MailToSend {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: Record<string, string>;
  campaign_id: number | null;
  attempts: number;
}

/**
 * The next mail due, held (`FOR UPDATE SKIP LOCKED`) by the caller's transaction until it commits,
 * so two senders never take the same mail and a sender that dies releases it; undefined when none
 * is due.
 */
export async function takeNextDueMail(manager: Writer): Promise<MailToSend | undefined> {
  const [mail]: MailToSend[] = await manager.query(
    `SELECT id, recipient, subject, text_body, html_body, headers, campaign_id, attempts FROM outgoing_mails
     WHERE status = 'pending' AND next_attempt_at <= now()
     ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
  );
  return mail;
}

/**
 * What a mail keeps once it is sent or given up: its template, language, recipient and the
 * parameters without secrets. Its subject and bodies (names, amounts, and the links that reset a
 * password, confirm an address or unsubscribe) and its headers (the one-click unsubscribe link)
 * are emptied in the same statement that marks it, so they are never kept after sending.
 */
const EMPTIED = "subject = '', text_body = '', html_body = '', headers = '{}'";

export async function markMailSent(manager: Writer, mailId: string): Promise<void> {
  await manager.query(
    `UPDATE outgoing_mails SET status = 'sent', sent_at = now(), attempts = attempts + 1, ${EMPTIED}
     WHERE id = $1`,
    [mailId],
  );
}

/**
 * Records a failed send: the mail is tried again after `retryInSeconds`, or left as failed when
 * this was its last attempt.
 */
export async function recordMailFailure(
  manager: Writer,
  failure: { mailId: string; attempts: number; error: string; final: boolean; retryInSeconds: number },
): Promise<void> {
  await manager.query(
    `UPDATE outgoing_mails SET attempts = $2, last_error = $3, status = CASE WHEN $4 THEN 'failed' ELSE 'pending' END,
       next_attempt_at = now() + make_interval(secs => $5) WHERE id = $1`,
    [failure.mailId, failure.attempts, failure.error, failure.final, failure.retryInSeconds],
  );
  // A mail given up is never sent: its links are of no use to anyone but whoever reads the table.
  if (failure.final)
    await manager.query(`UPDATE outgoing_mails SET ${EMPTIED} WHERE id = $1`, [failure.mailId]);
}

/**
 * Empties any sent or given-up mail still holding its subject, bodies or headers (one marked by
 * a sender of an older version, or restored from a backup), in batches; answers how many.
 */
export async function emptySentMails(manager: Writer, batch = 1000): Promise<number> {
  let emptied = 0;
  for (;;) {
    const rows: unknown[] = await manager.query(
      `UPDATE outgoing_mails SET ${EMPTIED}
       WHERE id IN (SELECT id FROM outgoing_mails
                    WHERE status <> 'pending'
                      AND (subject <> '' OR text_body <> '' OR html_body <> '' OR headers <> '{}')
                    LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [batch],
    );
    emptied += rows.length;
    if (rows.length < batch) return emptied;
  }
}

/** Why a campaign mail still waiting was not sent: its reader left the newsletter first. */
export const UNSUBSCRIBED_BEFORE_SENDING = 'The recipient unsubscribed before it was sent.';

/**
 * Campaign mails still waiting for an address (case ignored) are not sent: they end as failed with
 * the reason, in the caller's transaction. A mail a sender holds right now (handed to the mail
 * server as this runs) is left to it. Answers how many were dropped per campaign.
 */
export async function dropWaitingCampaignMails(
  manager: Writer,
  recipient: string,
): Promise<Map<number, number>> {
  const [dropped]: [Array<{ campaignId: number }>, number] = await manager.query(
    `UPDATE outgoing_mails SET status = 'failed', last_error = $2
     WHERE id IN (
       SELECT id FROM outgoing_mails
       WHERE lower(recipient) = lower($1) AND campaign_id IS NOT NULL AND status = 'pending'
       FOR UPDATE SKIP LOCKED
     )
     RETURNING campaign_id AS "campaignId"`,
    [recipient, UNSUBSCRIBED_BEFORE_SENDING],
  );
  const perCampaign = new Map<number, number>();
  for (const { campaignId } of dropped) perCampaign.set(campaignId, (perCampaign.get(campaignId) ?? 0) + 1);
  return perCampaign;
}
