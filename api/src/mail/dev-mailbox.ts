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
