import type { EntityManager } from 'typeorm';
import type { Language } from '../../rules/engagement.js';

type Reader = Pick<EntityManager, 'query'>;

/** A subscriber still to confirm, as the confirmation mail needs it. */
export interface PendingSubscriber {
  id: number;
  email: string;
  language: Language;
  /** When the confirmation was asked for: the mail's link is signed with it. */
  sentAt: Date;
}

/** The subscriber, while it waits for its confirmation (undefined once confirmed or unsubscribed). */
export async function pendingSubscriber(reader: Reader, id: number): Promise<PendingSubscriber | undefined> {
  const [subscriber]: PendingSubscriber[] = await reader.query(
    `SELECT id, email, language, confirmation_sent_at AS "sentAt" FROM newsletter_subscribers
     WHERE id = $1 AND status = 'pending'`,
    [id],
  );
  return subscriber;
}
