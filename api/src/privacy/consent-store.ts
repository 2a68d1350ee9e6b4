import type { Transaction } from '../infrastructure/events/unit-of-work.js';
import type { ConsentHolder, ConsentPurpose } from '../rules/privacy.js';
import { ConsentRecorded } from './events/consent-events.js';

/** Whose consent: the kind of account and its id. */
export interface Holder {
  kind: ConsentHolder;
  id: number;
}

/**
 * Records one row per choice (the history is kept; the latest row per purpose is the current
 * consent) and an event per row carrying ids only. Inside the caller's transaction, so a
 * registration's consents exist exactly when its account does.
 */
export async function recordConsents(
  { manager, record }: Transaction,
  holder: Holder,
  choices: ReadonlyArray<{ purpose: ConsentPurpose; given: boolean }>,
  noticeVersion: string,
): Promise<void> {
  if (choices.length === 0) return;
  await manager.query(
    `INSERT INTO consents (holder_kind, holder_id, purpose, given, notice_version)
     SELECT $1, $2, purpose, given, $5 FROM unnest($3::text[], $4::boolean[]) AS c (purpose, given)`,
    [
      holder.kind,
      holder.id,
      choices.map((choice) => choice.purpose),
      choices.map((choice) => choice.given),
      noticeVersion,
    ],
  );
  for (const { purpose, given } of choices) {
    record(
      new ConsentRecorded(`${holder.kind}:${holder.id}`, {
        holderKind: holder.kind,
        holderId: holder.id,
        purpose,
        given,
        noticeVersion,
      }),
    );
  }
}
