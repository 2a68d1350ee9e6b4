/** SQL of the data-request log: each step of an export, a deletion or a grievance, and who took it. */
import type { EntityManager } from 'typeorm';
import type { DataRequestActor, DataRequestKind } from '../../rules/privacy.js';

/** One step of a data request, as the command that takes it records it. */
export interface DataRequestStep {
  kind: DataRequestKind;
  /** The step, in the log's words: `requested`, `confirmed`, `cancelled`, `erased`, `downloaded`, `answered` ... */
  action: string;
  /** The account the request is about; absent for a grievance a visitor filed signed out. */
  person?: { kind: 'shopper' | 'merchant'; id: number };
  /** The request's own reference (a deletion request's or a grievance's id), when it has one. */
  reference?: string;
  actedBy: DataRequestActor;
  /** The admin who acted, when `actedBy` is `admin`. */
  adminId?: number;
  /** Counts and references only: the log outlives an erasure and must name nobody. */
  detail?: Record<string, unknown>;
}

/** Records one step, in the transaction of the command that takes it. */
export async function recordDataRequest(
  manager: Pick<EntityManager, 'query'>,
  step: DataRequestStep,
): Promise<void> {
  await manager.query(
    `INSERT INTO data_requests (kind, action, person_kind, person_id, reference, acted_by, admin_id, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      step.kind,
      step.action,
      step.person?.kind ?? null,
      step.person?.id ?? null,
      step.reference ?? null,
      step.actedBy,
      step.adminId ?? null,
      JSON.stringify(step.detail ?? {}),
    ],
  );
}

/** A row of the admins' log. */
export interface DataRequestRow {
  id: string;
  kind: DataRequestKind;
  action: string;
  personKind: 'shopper' | 'merchant' | null;
  personId: number | null;
  reference: string | null;
  actedBy: DataRequestActor;
  adminId: number | null;
  actedAt: Date;
  detail: Record<string, unknown>;
}

/** One page of the log, newest first, of one kind or all, and how many rows there are in all. */
export async function dataRequestLog(
  manager: Pick<EntityManager, 'query'>,
  query: { kind?: DataRequestKind; offset: number; limit: number },
): Promise<{ rows: DataRequestRow[]; total: number }> {
  const rows: Array<DataRequestRow & { total: number }> = await manager.query(
    `SELECT id::text, kind, action, person_kind AS "personKind", person_id AS "personId", reference,
            acted_by AS "actedBy", admin_id AS "adminId", acted_at AS "actedAt", detail,
            count(*) OVER ()::int AS total
     FROM data_requests
     WHERE $1::text IS NULL OR kind = $1
     ORDER BY acted_at DESC, id DESC
     OFFSET $2 LIMIT $3`,
    [query.kind ?? null, query.offset, query.limit],
  );
  const total = rows[0]?.total ?? 0;
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
}
