import type { EntityManager } from 'typeorm';
import { changedRows, type ForgetOutcome, type PersonToForget } from '../privacy/person.js';

/**
 * Mails to the person's address go, sent or still due (their bodies hold names, links and
 * amounts), and so do the development mailbox's copies of them.
 */
export async function forgetMail(manager: EntityManager, person: PersonToForget): Promise<ForgetOutcome> {
  const outgoing = await changedRows(
    manager,
    'DELETE FROM outgoing_mails WHERE strpos(lower(recipient), lower($1)) > 0',
    [person.email],
  );
  const caught = await changedRows(
    manager,
    'DELETE FROM dev_mailbox WHERE strpos(lower(recipients), lower($1)) > 0',
    [person.email],
  );
  return { removed: { outgoing_mails: outgoing, dev_mailbox: caught }, anonymised: {} };
}
