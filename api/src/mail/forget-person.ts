import type { EntityManager } from 'typeorm';
import { changedRows, type ForgetOutcome, type PersonToForget } from '../privacy/person.js';

/**
 * Mails to the person's address go, sent or still due (their bodies, or once sent their
 * parameters, hold names, links and amounts), and so do mails about them to others that quote
 * their address (a contact message
 * passed on to the staff), and the development mailbox's copies of either.
 */
export async function forgetMail(manager: EntityManager, person: PersonToForget): Promise<ForgetOutcome> {
  const outgoing = await changedRows(
    manager,
    `DELETE FROM outgoing_mails
     WHERE strpos(lower(recipient), lower($1)) > 0 OR strpos(lower(text_body), lower($1)) > 0
        OR strpos(lower(html_body), lower($1)) > 0 OR strpos(lower(headers::text), lower($1)) > 0
        OR strpos(lower(parameters::text), lower($1)) > 0`,
    [person.email],
  );
  const caught = await changedRows(
    manager,
    `DELETE FROM dev_mailbox
     WHERE strpos(lower(recipients), lower($1)) > 0 OR strpos(lower(text_body), lower($1)) > 0
        OR strpos(lower(html_body), lower($1)) > 0`,
    [person.email],
  );
  return { removed: { outgoing_mails: outgoing, dev_mailbox: caught }, anonymised: {} };
}
