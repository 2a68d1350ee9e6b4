import type { EntityManager } from 'typeorm';
import { changedRows, type ForgetOutcome, type PersonToForget } from '../privacy/person.js';

/**
 * Newsletter subscriptions of the person's address (with their place in campaigns) and the contact
 * messages sent from it or from their number go: they are the person's words and addresses, and
 * nothing the law keeps.
 */
export async function forgetEngagement(
  manager: EntityManager,
  person: PersonToForget,
): Promise<ForgetOutcome> {
  const recipients = await changedRows(
    manager,
    `DELETE FROM campaign_recipients
     WHERE subscriber_id IN (SELECT id FROM newsletter_subscribers WHERE lower(email) = lower($1))`,
    [person.email],
  );
  const subscribers = await changedRows(
    manager,
    'DELETE FROM newsletter_subscribers WHERE lower(email) = lower($1)',
    [person.email],
  );
  const messages = await changedRows(
    manager,
    'DELETE FROM contact_messages WHERE lower(email) = lower($1) OR (mobile IS NOT NULL AND mobile = $2)',
    [person.email, person.mobile ?? null],
  );
  return {
    removed: {
      campaign_recipients: recipients,
      newsletter_subscribers: subscribers,
      contact_messages: messages,
    },
    anonymised: {},
  };
}
