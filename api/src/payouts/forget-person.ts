import type { EntityManager } from 'typeorm';
import { changedRows, type ForgetOutcome, type PersonToForget } from '../privacy/person.js';

/** Stands in for a UPI ID or bank account a payout must name by its method (the table's checks). */
const FORGOTTEN_ACCOUNT = 'forgotten';

/**
 * Payouts keep their amount, dates, bank reference and state (the law keeps them); where the
 * money went (UPI ID, account number, IFSC, holder's name) goes.
 */
export async function forgetPayouts(manager: EntityManager, person: PersonToForget): Promise<ForgetOutcome> {
  if (person.kind !== 'shopper') return { removed: {}, anonymised: {} };
  const payouts = await changedRows(
    manager,
    `UPDATE payouts SET upi_id = CASE WHEN upi_id IS NULL THEN NULL ELSE $2 END,
            account_number = CASE WHEN account_number IS NULL THEN NULL ELSE $2 END,
            ifsc = CASE WHEN ifsc IS NULL THEN NULL ELSE $2 END,
            account_holder_name = NULL
     WHERE user_id = $1`,
    [person.id, FORGOTTEN_ACCOUNT],
  );
  return { removed: {}, anonymised: { payouts } };
}
