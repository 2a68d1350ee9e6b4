import type { EntityManager } from 'typeorm';
import { changedRows, type ForgetOutcome, type PersonToForget } from './person.js';

/**
 * The person's grievances (filed signed in, or from their address) stay as the record that a
 * grievance was filed, when it was due and whether and when it was answered (reference, category,
 * dates, state, answering admin), so the 90-day duty can still be shown to have been met; who filed
 * it and their words (name, address, subject, message, answer) go. An open one stays in the queue,
 * but its answer can reach nobody: the mailer sends nothing to a forgotten address. See
 * docs/decisions.md, "Grievances of an erased account".
 */
export async function forgetGrievances(
  manager: EntityManager,
  person: PersonToForget,
): Promise<ForgetOutcome> {
  const grievances = await changedRows(
    manager,
    `UPDATE grievances SET name = $4, email = $4 || '@forgotten.invalid', subject = '', message = '',
            answer = CASE WHEN answer IS NULL THEN NULL ELSE '' END
     WHERE (person_kind = $1 AND person_id = $2) OR lower(email) = lower($3)`,
    [person.kind, person.id, person.email, person.pseudonym],
  );
  return { removed: {}, anonymised: { grievances } };
}

/**
 * The person's consents and their history go: they say what the person agreed to, which matters
 * no more once the account and the mails it covered are gone.
 */
export async function forgetConsents(manager: EntityManager, person: PersonToForget): Promise<ForgetOutcome> {
  const consents = await changedRows(
    manager,
    'DELETE FROM consents WHERE holder_kind = $1 AND holder_id = $2',
    [person.kind, person.id],
  );
  return { removed: { consents }, anonymised: {} };
}

/** What privacy holds of the person: consents go, grievances stay without who filed them. */
export async function forgetPrivacy(manager: EntityManager, person: PersonToForget): Promise<ForgetOutcome> {
  const consents = await forgetConsents(manager, person);
  const grievances = await forgetGrievances(manager, person);
  return {
    removed: { ...consents.removed, ...grievances.removed },
    anonymised: { ...consents.anonymised, ...grievances.anonymised },
  };
}
