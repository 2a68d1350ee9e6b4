import type { EntityManager } from 'typeorm';

/**
 * The person an erasure forgets: their account's id, and what rows keyed by address instead of
 * account (newsletter subscribers, contact messages, outgoing mails) are found by. The pseudonym
 * takes the place of their identity where a row must stay and a value must remain unique.
 */
export interface PersonToForget {
  kind: 'shopper' | 'merchant';
  id: number;
  email: string;
  mobile?: string | null;
  pseudonym: string;
}

/** What one owner removed and anonymised, counted per table, for the log of data requests. */
export interface ForgetOutcome {
  removed: Record<string, number>;
  anonymised: Record<string, number>;
}

/** One owner forgetting what it holds of the person, inside the erasure's transaction. */
export type ForgetPerson = (manager: EntityManager, person: PersonToForget) => Promise<ForgetOutcome>;

/** The role the access code gives the person's sessions, votes and stored answers. */
export const accountRole = (person: PersonToForget): 'user' | 'merchant' =>
  person.kind === 'shopper' ? 'user' : 'merchant';

/**
 * Rows a statement changed, whatever it is: the statement is wrapped so that it always answers one
 * row with the count (`WITH changed AS (... RETURNING 1) SELECT count(*)`).
 */
export async function changedRows(
  manager: EntityManager,
  statement: string,
  parameters: unknown[],
): Promise<number> {
  const [row] = await manager.query(
    `WITH changed AS (${statement} RETURNING 1) SELECT count(*)::int AS n FROM changed`,
    parameters,
  );
  return row.n as number;
}
