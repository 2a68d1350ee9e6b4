import type { EntityManager } from 'typeorm';

type Writer = Pick<EntityManager, 'query'>;

/** A mail as the development SMTP catcher received it. */
export interface CaughtMail {
  sender: string;
  recipients: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Keeps a mail the development SMTP catcher received, for admins to read at
 * `GET /api/admin/dev-mailbox` (development without `SMTP_URL` only).
 */
export async function keepDevMail(writer: Writer, mail: CaughtMail): Promise<void> {
  await writer.query(
    `INSERT INTO dev_mailbox (sender, recipients, subject, text_body, html_body)
     VALUES ($1, $2, $3, $4, $5)`,
    [mail.sender, mail.recipients, mail.subject, mail.text, mail.html],
  );
}

/**
 * The development mailbox stands in for the recipients' own mailboxes, so its mails keep their
 * links for a developer to follow; they go once older than `keepHours`, with what they hold.
 */
export async function purgeDevMailbox(writer: Writer, keepHours: number): Promise<number> {
  const [, removed] = await writer.query(
    'DELETE FROM dev_mailbox WHERE received_at < now() - make_interval(hours => $1)',
    [keepHours],
  );
  return removed ?? 0;
}
