import type { EntityManager } from 'typeorm';
import { forgetPrivateImages } from '../media/private-media.js';
import type { ForgetOutcome, PersonToForget } from '../privacy/person.js';

/**
 * Claims stay as records of the cashback they decided (store, order id, date, amount, state, the
 * admins' reason), under the account's id; the person's invoice images go, row and bytes, through
 * media.
 */
export async function forgetClaims(manager: EntityManager, person: PersonToForget): Promise<ForgetOutcome> {
  if (person.kind !== 'shopper') return { removed: {}, anonymised: {} };
  // Wrapped in a SELECT so that the driver answers the rows themselves, as for any query.
  const invoices: Array<{ id: string }> = await manager.query(
    `WITH old AS (SELECT id, invoice_id FROM missing_cashback_claims
                  WHERE user_id = $1 AND invoice_id IS NOT NULL FOR UPDATE),
          cleared AS (UPDATE missing_cashback_claims c SET invoice_id = NULL FROM old WHERE c.id = old.id
                      RETURNING old.invoice_id AS id)
     SELECT id FROM cleared`,
    [person.id],
  );
  const images = await forgetPrivateImages(
    manager,
    invoices.map((invoice) => invoice.id),
  );
  return { removed: { private_media: images }, anonymised: { missing_cashback_claims: invoices.length } };
}
