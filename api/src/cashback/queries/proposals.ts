/** SQL of the rates feed sources propose for stores. */
import type { ListRequest } from '../../infrastructure/http/react-admin.js';
import type { CashbackProposalState, StoredRate } from '../../rules/cashback.js';
import { type Reader, storedRateOf } from './rates.js';

export interface ProposalRow {
  id: number;
  storeId: number;
  sourceId: number;
  payout: StoredRate;
  shareBp: number;
  rate: StoredRate;
  state: CashbackProposalState;
  proposedAt: Date;
  decidedAt: Date | null;
}

const COLUMNS = `id, merchant_id AS "storeId", source_id AS "sourceId", payout_kind AS "payoutKind",
  payout_value AS "payoutValue", share_bp AS "shareBp", rate_kind AS kind, rate_value AS value, state,
  proposed_at AS "proposedAt", decided_at AS "decidedAt"`;

type Raw = Omit<ProposalRow, 'payout' | 'rate'> & {
  payoutKind: 'percent' | 'flat';
  payoutValue: string;
  kind: 'percent' | 'flat';
  value: string;
};

const rowOf = (raw: Raw): ProposalRow => ({
  id: raw.id,
  storeId: raw.storeId,
  sourceId: raw.sourceId,
  payout: { kind: raw.payoutKind, value: Number(raw.payoutValue) },
  shareBp: raw.shareBp,
  rate: storedRateOf(raw)!,
  state: raw.state,
  proposedAt: raw.proposedAt,
  decidedAt: raw.decidedAt,
});

export const PROPOSAL_SORTS = ['id', 'proposedAt', 'storeId', 'state'] as const;
const SORT_COLUMNS: Record<(typeof PROPOSAL_SORTS)[number], string> = {
  id: 'id',
  proposedAt: 'proposed_at',
  storeId: 'merchant_id',
  state: 'state',
};

/** A page of proposals and the total of the filter (each part null: any). */
export async function proposalPage(
  reader: Reader,
  page: ListRequest<(typeof PROPOSAL_SORTS)[number]>,
  filter: { state: string | null; storeId: number | null; sourceId: number | null },
): Promise<{ rows: ProposalRow[]; total: number }> {
  const where = `WHERE ($1::text IS NULL OR state = $1) AND ($2::int IS NULL OR merchant_id = $2)
    AND ($3::int IS NULL OR source_id = $3)`;
  const parameters = [filter.state, filter.storeId, filter.sourceId];
  const [{ total }] = await reader.query(
    `SELECT count(*)::int AS total FROM cashback_proposals ${where}`,
    parameters,
  );
  const rows: Raw[] = await reader.query(
    `SELECT ${COLUMNS} FROM cashback_proposals ${where}
     ORDER BY ${SORT_COLUMNS[page.sortField]} ${page.order}, id ${page.order} OFFSET $4 LIMIT $5`,
    [...parameters, page.offset, page.limit],
  );
  return { rows: rows.map(rowOf), total };
}

export async function proposalById(
  reader: Reader,
  id: number,
  { lock = false } = {},
): Promise<ProposalRow | undefined> {
  const [raw]: Raw[] = await reader.query(
    `SELECT ${COLUMNS} FROM cashback_proposals WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return raw && rowOf(raw);
}

/** The open proposal of a store by a source, and the last one an admin decided. */
export async function proposalsOf(
  reader: Reader,
  storeId: number,
  sourceId: number,
): Promise<{ open: ProposalRow | undefined; lastDecided: ProposalRow | undefined }> {
  const rows: Raw[] = await reader.query(
    `(SELECT ${COLUMNS} FROM cashback_proposals WHERE merchant_id = $1 AND source_id = $2 AND state = 'open')
     UNION ALL
     (SELECT ${COLUMNS} FROM cashback_proposals WHERE merchant_id = $1 AND source_id = $2 AND state <> 'open'
      ORDER BY decided_at DESC, id DESC LIMIT 1)`,
    [storeId, sourceId],
  );
  const proposals = rows.map(rowOf);
  return {
    open: proposals.find((proposal) => proposal.state === 'open'),
    lastDecided: proposals.find((proposal) => proposal.state !== 'open'),
  };
}

export interface NewProposal {
  storeId: number;
  sourceId: number;
  payout: StoredRate;
  shareBp: number;
  rate: StoredRate;
}

/** Opens a proposal, or replaces what the open one of the store and source says; answers its id. */
export async function saveOpenProposal(
  reader: Reader,
  proposal: NewProposal,
  openId?: number,
): Promise<number> {
  const values = [
    proposal.payout.kind,
    proposal.payout.value,
    proposal.shareBp,
    proposal.rate.kind,
    proposal.rate.value,
  ];
  if (openId !== undefined) {
    await reader.query(
      `UPDATE cashback_proposals SET payout_kind = $2, payout_value = $3, share_bp = $4, rate_kind = $5,
                                     rate_value = $6, proposed_at = now()
       WHERE id = $1`,
      [openId, ...values],
    );
    return openId;
  }
  const [row] = await reader.query(
    `INSERT INTO cashback_proposals (merchant_id, source_id, payout_kind, payout_value, share_bp, rate_kind, rate_value)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [proposal.storeId, proposal.sourceId, ...values],
  );
  return row.id as number;
}

export async function decideProposal(
  reader: Reader,
  id: number,
  state: 'accepted' | 'dismissed',
  adminId: number,
): Promise<void> {
  await reader.query(
    'UPDATE cashback_proposals SET state = $2, decided_at = now(), decided_by_admin_id = $3 WHERE id = $1',
    [id, state, adminId],
  );
}
