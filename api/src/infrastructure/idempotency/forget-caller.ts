import type { EntityManager } from 'typeorm';

/**
 * Deletes the stored first answers of a caller (`<role>:<id>`, as the interceptor names a signed-in
 * caller) and any other answer that carries the address given (a visitor's, stored under their
 * client address). Answers how many went. Erasure calls it; it knows no feature.
 */
export async function forgetCallerAnswers(
  manager: EntityManager,
  caller: string,
  email: string,
): Promise<number> {
  const [row] = await manager.query(
    `WITH gone AS (
       DELETE FROM idempotency_keys
       WHERE caller = $1 OR strpos(lower(coalesce(body, '')), lower($2)) > 0
          OR strpos(lower(coalesce(headers::text, '')), lower($2)) > 0
       RETURNING 1)
     SELECT count(*)::int AS n FROM gone`,
    [caller, email],
  );
  return row.n as number;
}
