import { type DescribePerson, fact, isoDate } from '../../privacy/person-data.js';

/**
 * The newsletter subscription of the person's address (its state and dates) and the contact
 * messages sent from their address or number (their words, as the staff received them).
 */
export const describeEngagement: DescribePerson = async (reader, person) => {
  const subscriptions: Array<Record<string, string | Date | null>> = await reader.query(
    `SELECT status, language, created_at AS "subscribedAt", confirmed_at AS "confirmedAt",
            unsubscribed_at AS "unsubscribedAt"
     FROM newsletter_subscribers WHERE lower(email) = lower($1) ORDER BY id`,
    [person.email],
  );
  const messages: Array<Record<string, string | Date | null>> = await reader.query(
    `SELECT name, email, mobile, message, received_at AS "receivedAt"
     FROM contact_messages
     WHERE lower(email) = lower($1) OR (mobile IS NOT NULL AND mobile = $2)
     ORDER BY received_at, id`,
    [person.email, person.mobile ?? null],
  );
  const subscription = subscriptions[0];
  return [
    {
      section: 'newsletter',
      count: subscriptions.length,
      facts: [
        fact('status', (subscription?.status as string | undefined) ?? 'none'),
        fact('subscribedAt', isoDate(subscription?.subscribedAt), 'date'),
      ],
      sharedWith: subscriptions.length > 0 ? [{ recipient: 'mailProvider', name: null, what: 'email' }] : [],
      records: subscriptions.map((row) => ({
        ...row,
        subscribedAt: isoDate(row.subscribedAt),
        confirmedAt: isoDate(row.confirmedAt),
        unsubscribedAt: isoDate(row.unsubscribedAt),
      })),
    },
    {
      section: 'contactMessages',
      count: messages.length,
      facts: [fact('lastAt', isoDate(messages.at(-1)?.receivedAt), 'date')],
      sharedWith: [],
      records: messages.map((row) => ({ ...row, receivedAt: isoDate(row.receivedAt) })),
    },
  ];
};
