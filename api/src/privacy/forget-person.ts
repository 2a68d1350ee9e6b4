import type { EntityManager } from 'typeorm';
import { changedRows, type ForgetOutcome, type PersonToForget } from './person.js';

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
