/** SQL of deletion requests: asked, confirmed (scheduled), cancelled, erased. */
import type { EntityManager } from 'typeorm';
import type { DeletionState } from '../../rules/privacy.js';

type Reader = Pick<EntityManager, 'query'>;

export interface DeletionRequestRow {
  id: string;
  personKind: 'shopper' | 'merchant';
  personId: number;
  state: DeletionState;
  givesUpUnpaidPaise: string;
  requestedAt: Date;
  confirmBefore: Date;
  confirmedAt: Date | null;
  eraseAfter: Date | null;
}

const COLUMNS = `id::text, person_kind AS "personKind", person_id AS "personId", state,
  gives_up_unpaid_paise::text AS "givesUpUnpaidPaise", requested_at AS "requestedAt",
  confirm_before AS "confirmBefore", confirmed_at AS "confirmedAt", erase_after AS "eraseAfter"`;

export interface NewDeletionRequest {
  personKind: 'shopper' | 'merchant';
  personId: number;
  givesUpUnpaidPaise: number;
  requestedAt: Date;
  confirmBefore: Date;
}

/** Inserts the request with placeholder digests (the tokens derive from its id); answers its id. */
export async function insertDeletionRequest(manager: Reader, request: NewDeletionRequest): Promise<string> {
  const [row] = await manager.query(
    `INSERT INTO deletion_requests (person_kind, person_id, gives_up_unpaid_paise, requested_at, confirm_before,
                                    confirm_token_digest, cancel_token_digest)
     VALUES ($1, $2, $3, $4, $5, '', '') RETURNING id::text`,
    [
      request.personKind,
      request.personId,
      request.givesUpUnpaidPaise,
      request.requestedAt,
      request.confirmBefore,
    ],
  );
  return row.id;
}

export async function setDeletionTokenDigests(
  manager: Reader,
  id: string,
  digests: { confirm: string; cancel: string },
): Promise<void> {
  await manager.query(
    'UPDATE deletion_requests SET confirm_token_digest = $2, cancel_token_digest = $3 WHERE id = $1',
    [id, digests.confirm, digests.cancel],
  );
}

/**
 * The person's open request (awaiting confirmation or scheduled), locked when `lock` is set. A
 * request awaiting confirmation whose link expired is no longer open: it is cancelled here first.
 */
export async function openDeletionRequest(
  manager: Reader,
  personKind: 'shopper' | 'merchant',
  personId: number,
  lock = false,
): Promise<DeletionRequestRow | undefined> {
  const [row]: DeletionRequestRow[] = await manager.query(
    `SELECT ${COLUMNS} FROM deletion_requests
     WHERE person_kind = $1 AND person_id = $2 AND state IN ('awaiting_confirmation', 'scheduled')
     ${lock ? 'FOR UPDATE' : ''}`,
    [personKind, personId],
  );
  return row;
}

/** Lets an unconfirmed request whose link expired lapse, so the person may ask again. */
export async function lapseExpiredRequest(manager: Reader, id: string): Promise<void> {
  await manager.query(
    `UPDATE deletion_requests SET state = 'cancelled', cancelled_at = now()
     WHERE id = $1 AND state = 'awaiting_confirmation' AND confirm_before <= now()`,
    [id],
  );
}

/** The request a link's token names, by the token's digest, locked. */
export async function deletionRequestByDigest(
  manager: Reader,
  purpose: 'confirm' | 'cancel',
  digest: string,
): Promise<DeletionRequestRow | undefined> {
  const column = purpose === 'confirm' ? 'confirm_token_digest' : 'cancel_token_digest';
  const [row]: DeletionRequestRow[] = await manager.query(
    `SELECT ${COLUMNS} FROM deletion_requests WHERE ${column} = $1 FOR UPDATE`,
    [digest],
  );
  return row;
}

export async function deletionRequestById(
  reader: Reader,
  id: string,
): Promise<DeletionRequestRow | undefined> {
  const [row]: DeletionRequestRow[] = await reader.query(
    `SELECT ${COLUMNS} FROM deletion_requests WHERE id = $1`,
    [id],
  );
  return row;
}

export async function scheduleDeletion(manager: Reader, id: string, eraseAfter: Date): Promise<void> {
  await manager.query(
    `UPDATE deletion_requests SET state = 'scheduled', confirmed_at = now(), erase_after = $2 WHERE id = $1`,
    [id, eraseAfter],
  );
}

export async function cancelDeletion(manager: Reader, id: string): Promise<void> {
  await manager.query(
    "UPDATE deletion_requests SET state = 'cancelled', cancelled_at = now() WHERE id = $1",
    [id],
  );
}

/**
 * The next scheduled request that is due, locked, skipping one another run of the job holds: each
 * is erased in its own transaction, so a run that dies leaves the rest (and its own) scheduled.
 */
export async function nextDueDeletion(
  manager: Reader,
  now: Date,
  /** Requests this run already put off. */
  skip: string[] = [],
): Promise<DeletionRequestRow | undefined> {
  const [row]: DeletionRequestRow[] = await manager.query(
    `SELECT ${COLUMNS} FROM deletion_requests
     WHERE state = 'scheduled' AND erase_after <= $1 AND NOT id = ANY($2::bigint[])
     ORDER BY erase_after, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [now, skip],
  );
  return row;
}

export async function markErased(manager: Reader, id: string): Promise<void> {
  await manager.query("UPDATE deletion_requests SET state = 'erased', erased_at = now() WHERE id = $1", [id]);
}

/** When the person's account is to be erased, if a confirmed deletion is waiting; for sign-in. */
export async function scheduledErasureOf(
  reader: Reader,
  personKind: 'shopper' | 'merchant',
  personId: number,
): Promise<Date | undefined> {
  const [row] = await reader.query(
    `SELECT erase_after AS "eraseAfter" FROM deletion_requests
     WHERE person_kind = $1 AND person_id = $2 AND state = 'scheduled'`,
    [personKind, personId],
  );
  return row?.eraseAfter;
}

/**
 * A page of erased requests, in erasure order after `after`, whose kept records are still there
 * and whose erasure was before `cutoff` (the retention period ago).
 */
export async function erasuresPastRetention(
  reader: Reader,
  cutoff: Date,
  after: { erasedAt: Date; id: string } | undefined,
  limit: number,
): Promise<Array<{ id: string; erasedAt: Date }>> {
  return reader.query(
    `SELECT id::text, erased_at AS "erasedAt" FROM deletion_requests
     WHERE state = 'erased' AND records_removed_at IS NULL AND erased_at <= $1
       AND ($2::timestamptz IS NULL OR (erased_at, id) > ($2, $3::bigint))
     ORDER BY erased_at, id LIMIT $4`,
    [cutoff, after?.erasedAt ?? null, after?.id ?? '0', limit],
  );
}

/** The erased request, locked, if its kept records are still there; skipped if another run holds it. */
export async function lockErasurePastRetention(
  manager: Reader,
  id: string,
): Promise<DeletionRequestRow | undefined> {
  const [row]: DeletionRequestRow[] = await manager.query(
    `SELECT ${COLUMNS} FROM deletion_requests
     WHERE id = $1 AND state = 'erased' AND records_removed_at IS NULL FOR UPDATE SKIP LOCKED`,
    [id],
  );
  return row;
}

export async function markRecordsRemoved(manager: Reader, id: string): Promise<void> {
  await manager.query('UPDATE deletion_requests SET records_removed_at = now() WHERE id = $1', [id]);
}
