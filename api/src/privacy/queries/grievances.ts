/** SQL of grievances: filing, the admins' queue, answering, and what the person's data holds of them. */
import type { EntityManager } from 'typeorm';
import type { Language } from '../../rules/engagement.js';
import { daysUntil, type GrievanceCategory, type GrievanceState } from '../../rules/privacy.js';
import { type DescribePerson, fact, isoDate } from '../person-data.js';
import type { GrievanceRecord } from './answers.js';

type Reader = Pick<EntityManager, 'query'>;

export interface NewGrievance {
  reference: string;
  name: string;
  email: string;
  category: GrievanceCategory;
  subject: string;
  message: string;
  language: Language;
  person?: { kind: 'shopper' | 'merchant'; id: number };
  filedAt: Date;
  dueAt: Date;
}

export async function insertGrievance(manager: Reader, grievance: NewGrievance): Promise<number> {
  const [row] = await manager.query(
    `INSERT INTO grievances (reference, name, email, category, subject, message, language, person_kind,
                             person_id, filed_at, due_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    [
      grievance.reference,
      grievance.name,
      grievance.email,
      grievance.category,
      grievance.subject,
      grievance.message,
      grievance.language,
      grievance.person?.kind ?? null,
      grievance.person?.id ?? null,
      grievance.filedAt,
      grievance.dueAt,
    ],
  );
  return row.id as number;
}

/** Answers an open grievance; undefined if there is none, `answered` if it already was. */
export async function answerGrievance(
  manager: Reader,
  id: number,
  answer: string,
  adminId: number,
): Promise<
  | { reference: string; personKind: 'shopper' | 'merchant' | null; personId: number | null }
  | 'answered'
  | undefined
> {
  const [current] = await manager.query('SELECT state FROM grievances WHERE id = $1 FOR UPDATE', [id]);
  if (!current) return undefined;
  if (current.state !== 'open') return 'answered';
  const [row] = await manager.query(
    // Wrapped in a SELECT so that the driver answers the rows themselves, as for any query.
    `WITH answered AS (
       UPDATE grievances SET state = 'answered', answer = $2, answered_at = now(), answered_by_admin_id = $3
       WHERE id = $1
       RETURNING reference, person_kind AS "personKind", person_id AS "personId")
     SELECT * FROM answered`,
    [id, answer, adminId],
  );
  return row;
}

const GRIEVANCE_COLUMNS = `
  g.id, g.reference, g.name, g.email, g.category, g.subject, g.message, g.language,
  g.person_kind AS "personKind", g.person_id AS "personId", g.state, g.filed_at AS "filedAt",
  g.due_at AS "dueAt", g.answer, g.answered_at AS "answeredAt", g.answered_by_admin_id AS "answeredById"`;

interface GrievanceRow
  extends Omit<GrievanceRecord, 'filedAt' | 'dueAt' | 'answeredAt' | 'daysLeft' | 'answeredBy'> {
  filedAt: Date;
  dueAt: Date;
  answeredAt: Date | null;
  answeredById: number | null;
}

/** A grievance as the admins read it, the answering admin named through `adminName`. */
function asRecord(
  row: GrievanceRow,
  adminName: (id: number) => string | undefined,
  now: Date,
): GrievanceRecord {
  const { answeredById, ...rest } = row;
  return {
    ...rest,
    filedAt: new Date(row.filedAt).toISOString(),
    dueAt: new Date(row.dueAt).toISOString(),
    daysLeft: daysUntil(new Date(row.dueAt), now),
    answeredAt: isoDate(row.answeredAt),
    answeredBy: answeredById === null ? null : (adminName(answeredById) ?? null),
  };
}

export type AdminNames = (reader: Reader, ids: readonly number[]) => Promise<Map<number, string>>;

export async function grievanceById(
  reader: Reader,
  id: number,
  adminNames: AdminNames,
): Promise<GrievanceRecord | undefined> {
  const [row]: GrievanceRow[] = await reader.query(
    `SELECT ${GRIEVANCE_COLUMNS} FROM grievances g WHERE g.id = $1`,
    [id],
  );
  if (!row) return undefined;
  const names = await adminNames(reader, row.answeredById === null ? [] : [row.answeredById]);
  return asRecord(row, (admin) => names.get(admin), new Date());
}

/** What the mails about a grievance need: whom to write to, in which language, and what. */
export async function grievanceMailFacts(
  reader: Reader,
  id: number,
): Promise<
  | {
      reference: string;
      name: string;
      email: string;
      language: string;
      subject: string;
      dueAt: Date;
      answer: string | null;
    }
  | undefined
> {
  const [row] = await reader.query(
    `SELECT reference, name, email, language, subject, due_at AS "dueAt", answer FROM grievances WHERE id = $1`,
    [id],
  );
  return row;
}

export const GRIEVANCE_SORTS = ['dueAt', 'filedAt', 'state', 'id'] as const;
export type GrievanceSort = (typeof GRIEVANCE_SORTS)[number];
const SORT_COLUMNS: Record<GrievanceSort, string> = {
  dueAt: 'g.due_at',
  filedAt: 'g.filed_at',
  state: 'g.state',
  id: 'g.id',
};

/** One page of the admins' queue, of one state or all, sorted as asked (then by id). */
export async function grievancesPage(
  reader: Reader,
  page: { sortField: GrievanceSort; order: 'ASC' | 'DESC'; offset: number; limit: number },
  filter: { state?: GrievanceState; q?: string },
  adminNames: AdminNames,
): Promise<{ rows: GrievanceRecord[]; total: number }> {
  const column = SORT_COLUMNS[page.sortField];
  const rows: Array<GrievanceRow & { total: number }> = await reader.query(
    `SELECT ${GRIEVANCE_COLUMNS}, count(*) OVER ()::int AS total FROM grievances g
     WHERE ($1::text IS NULL OR g.state = $1)
       AND ($2::text IS NULL OR g.reference ILIKE '%' || $2 || '%' OR g.subject ILIKE '%' || $2 || '%'
            OR g.email ILIKE '%' || $2 || '%')
     ORDER BY ${column} ${page.order}, g.id ${page.order}
     OFFSET $3 LIMIT $4`,
    [filter.state ?? null, filter.q ?? null, page.offset, page.limit],
  );
  const ids = [...new Set(rows.flatMap((row) => (row.answeredById === null ? [] : [row.answeredById])))];
  const names = await adminNames(reader, ids);
  const now = new Date();
  return {
    rows: rows.map(({ total: _total, ...row }) => asRecord(row, (admin) => names.get(admin), now)),
    total: rows[0]?.total ?? 0,
  };
}

/** The person's grievances (filed signed in, or from their address) and their data requests. */
export const describePrivacyRequests: DescribePerson = async (reader, person) => {
  const grievances: Array<Record<string, string | Date | null>> = await reader.query(
    `SELECT reference, category, subject, message, state, filed_at AS "filedAt", due_at AS "dueAt", answer,
            answered_at AS "answeredAt"
     FROM grievances
     WHERE (person_kind = $1 AND person_id = $2) OR lower(email) = lower($3)
     ORDER BY filed_at, id`,
    [person.kind, person.id, person.email],
  );
  const requests: Array<{ kind: string; action: string; actedBy: string; actedAt: Date }> =
    await reader.query(
      `SELECT kind, action, acted_by AS "actedBy", acted_at AS "actedAt" FROM data_requests
     WHERE person_kind = $1 AND person_id = $2 ORDER BY acted_at, id`,
      [person.kind, person.id],
    );
  return [
    {
      section: 'grievances',
      count: grievances.length,
      facts: [fact('open', grievances.filter((row) => row.state === 'open').length, 'number')],
      sharedWith: [],
      records: grievances.map((row) => ({
        ...row,
        filedAt: isoDate(row.filedAt),
        dueAt: isoDate(row.dueAt),
        answeredAt: isoDate(row.answeredAt),
      })),
    },
    {
      section: 'dataRequests',
      count: requests.length,
      facts: [fact('lastAt', isoDate(requests.at(-1)?.actedAt), 'date')],
      sharedWith: [],
      records: requests.map((row) => ({ ...row, actedAt: isoDate(row.actedAt) })),
    },
  ];
};
