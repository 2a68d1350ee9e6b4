import { type DescribePerson, fact, isoDate } from '../../privacy/person-data.js';

/**
 * The mails sent (or due) to the person's address: which, in what language and when. Not their
 * subjects and bodies: a sent mail keeps neither (they carry names and links that act), so the
 * template says what each was. Every one went through the mail provider, which received the address.
 */
export const describeMail: DescribePerson = async (reader, person) => {
  const mails: Array<{
    template: string;
    language: string;
    status: string;
    createdAt: Date;
    sentAt: Date | null;
  }> = await reader.query(
    `SELECT template, language, status, created_at AS "createdAt", sent_at AS "sentAt"
       FROM outgoing_mails WHERE lower(recipient) = lower($1) ORDER BY created_at, id`,
    [person.email],
  );
  return [
    {
      section: 'mails',
      count: mails.length,
      facts: [fact('lastSentAt', isoDate(mails.findLast((mail) => mail.sentAt)?.sentAt), 'date')],
      sharedWith: mails.length > 0 ? [{ recipient: 'mailProvider', name: null, what: 'email' }] : [],
      records: mails.map((mail) => ({
        ...mail,
        createdAt: isoDate(mail.createdAt),
        sentAt: isoDate(mail.sentAt),
      })),
    },
  ];
};
