import type { EntityManager } from 'typeorm';
import { accountRole, changedRows, type ForgetOutcome, type PersonToForget } from '../privacy/person.js';

/**
 * Forgets the person's account. The row stays under its id, because earnings, payouts and claims
 * reference it and the law keeps those, but nothing on it names, reaches or lets anyone sign in as
 * the person: name, email, number, address and password hash give way to the pseudonym. A
 * merchant's store brand (its name, slug and site as shoppers saw them) stays; the account's
 * contact and sign-in fields go, as for a store that never had an account. Sessions, sign-in
 * failures counted under the person's id, email or number, and the referral code go.
 */
export async function forgetIdentity(manager: EntityManager, person: PersonToForget): Promise<ForgetOutcome> {
  const role = accountRole(person);
  const sessions = await changedRows(manager, 'DELETE FROM sessions WHERE role = $1 AND account_id = $2', [
    role,
    person.id,
  ]);
  // Failures are keyed `account:<role>#<id>`, `account:<role>:<what was typed>` and
  // `pair:<one of those>@<address>` (sign-in/sign-in-throttle.ts).
  const accountKeys = [`${role}#${person.id}`, `${role}:${person.email.toLowerCase()}`];
  if (person.mobile) accountKeys.push(`${role}:${person.mobile}`);
  const signInFailures = await changedRows(
    manager,
    `DELETE FROM sign_in_failures
     WHERE key = ANY(SELECT 'account:' || k FROM unnest($1::text[]) k)
        OR key LIKE ANY(SELECT 'pair:' || replace(replace(k, '%', '\\%'), '_', '\\_') || '@%' FROM unnest($1::text[]) k)`,
    [accountKeys],
  );
  const referralCodes = await changedRows(
    manager,
    'DELETE FROM referral_codes WHERE owner_type = $1 AND owner_id = $2',
    [role, person.id],
  );
  const accounts =
    person.kind === 'shopper'
      ? await changedRows(
          manager,
          `UPDATE users SET user_name = $2, email = $2 || '@forgotten.invalid', mobile_number = $2,
                  password_hash = '!', referral_code = $2, address = '', updated_at = now()
           WHERE id = $1`,
          [person.id, person.pseudonym],
        )
      : await changedRows(
          manager,
          `UPDATE merchants SET user_name = NULL, email = NULL, mobile = NULL, password_hash = NULL,
                  address = '', referral_code = NULL, updated_at = now()
           WHERE id = $1`,
          [person.id],
        );
  return {
    removed: { sessions, sign_in_failures: signInFailures, referral_codes: referralCodes },
    anonymised: { [person.kind === 'shopper' ? 'users' : 'merchants']: accounts },
  };
}
