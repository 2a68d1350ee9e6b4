import type { EntityManager } from 'typeorm';
import { shopperIdsByEmail } from '../../identity/queries/mail-recipients.js';
import { CONSENT_PURPOSES, type ConsentHolder, type ConsentPurpose } from '../../rules/privacy.js';
import type { Holder } from '../consent-store.js';
import { type DescribePerson, fact, isoDate } from '../person-data.js';

type Reader = Pick<EntityManager, 'query'>;

/** A purpose's current state: given or not, since when and under which notice (null: never asked). */
export interface CurrentConsent {
  purpose: ConsentPurpose;
  given: boolean;
  noticeVersion: string | null;
  recordedAt: string | null;
}

/** Every purpose's current consent of one holder, in the rules' order; never recorded is not given. */
export async function currentConsents(reader: Reader, holder: Holder): Promise<CurrentConsent[]> {
  const rows: Array<{ purpose: ConsentPurpose; given: boolean; noticeVersion: string; recordedAt: Date }> =
    await reader.query(
      `SELECT DISTINCT ON (purpose) purpose, given, notice_version AS "noticeVersion", recorded_at AS "recordedAt"
       FROM consents WHERE holder_kind = $1 AND holder_id = $2
       ORDER BY purpose, id DESC`,
      [holder.kind, holder.id],
    );
  const latest = new Map(rows.map((row) => [row.purpose, row]));
  return CONSENT_PURPOSES.map((purpose) => {
    const row = latest.get(purpose);
    return {
      purpose,
      given: row?.given ?? false,
      noticeVersion: row?.noticeVersion ?? null,
      recordedAt: row ? new Date(row.recordedAt).toISOString() : null,
    };
  });
}

/** Of `ids`, the holders whose current consent to `purpose` is given, in one statement. */
export async function holdersConsenting(
  reader: Reader,
  kind: ConsentHolder,
  ids: readonly number[],
  purpose: ConsentPurpose,
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows: Array<{ id: number }> = await reader.query(
    `SELECT latest.holder_id AS id FROM (
       SELECT DISTINCT ON (holder_id) holder_id, given FROM consents
       WHERE holder_kind = $1 AND holder_id = ANY($2::int[]) AND purpose = $3
       ORDER BY holder_id, id DESC
     ) latest WHERE latest.given`,
    [kind, [...new Set(ids)], purpose],
  );
  return new Set(rows.map((row) => row.id));
}

/** One holder's every recorded choice, newest first: what was consented to, when, under which notice. */
export function consentHistory(
  reader: Reader,
  holder: Holder,
): Promise<Array<{ purpose: ConsentPurpose; given: boolean; noticeVersion: string; recordedAt: Date }>> {
  return reader.query(
    `SELECT purpose, given, notice_version AS "noticeVersion", recorded_at AS "recordedAt" FROM consents
     WHERE holder_kind = $1 AND holder_id = $2 ORDER BY id DESC`,
    [holder.kind, holder.id],
  );
}

/**
 * Of these addresses, the lower-cased ones of shopper accounts whose current consent to `purpose`
 * is not given. An address of no account is not in it: a visitor's mails follow what they signed
 * up for on the public form.
 */
export async function accountAddressesWithout(
  reader: Reader,
  emails: readonly string[],
  purpose: ConsentPurpose,
): Promise<Set<string>> {
  const accounts = await shopperIdsByEmail(reader, emails);
  const consenting = await holdersConsenting(reader, 'shopper', [...accounts.values()], purpose);
  return new Set([...accounts].filter(([, id]) => !consenting.has(id)).map(([email]) => email));
}

/**
 * The person's consents for "Your data": when each purpose now given was given (a purpose not given
 * shows nothing), and every choice recorded, with the notice it was made under.
 */
export const describeConsents: DescribePerson = async (reader, person) => {
  if (person.kind !== 'shopper') return [];
  const holder = { kind: person.kind, id: person.id };
  const [current, history] = await Promise.all([
    currentConsents(reader, holder),
    consentHistory(reader, holder),
  ]);
  return [
    {
      section: 'consents',
      count: history.length,
      facts: current.map((consent) =>
        fact(consent.purpose, consent.given ? consent.recordedAt : null, 'date'),
      ),
      sharedWith: [],
      records: history.map((choice) => ({ ...choice, recordedAt: isoDate(choice.recordedAt) })),
    },
  ];
};
