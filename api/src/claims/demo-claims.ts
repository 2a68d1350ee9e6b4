import type { EntityManager } from 'typeorm';

/**
 * Moves a demo claim's filing and answer into the past, after the commands made them: the demo
 * shows claims filed weeks ago, which no command can do today. Its events are the commands'. Not
 * in production.
 */
export async function backdateDemoClaim(
  manager: Pick<EntityManager, 'query'>,
  claimId: number,
  days: { filed: number; answered?: number },
): Promise<void> {
  await manager.query(
    `UPDATE missing_cashback_claims
     SET filed_at = now() - make_interval(days => $2),
         answered_at = CASE WHEN $3::int IS NULL THEN answered_at ELSE now() - make_interval(days => $3) END
     WHERE id = $1`,
    [claimId, days.filed, days.answered ?? null],
  );
}

/** Whether the shopper has filed any claim: the demo seed files its claims once. */
export async function shopperHasClaims(
  reader: Pick<EntityManager, 'query'>,
  userId: number,
): Promise<boolean> {
  const rows: unknown[] = await reader.query(
    'SELECT 1 FROM missing_cashback_claims WHERE user_id = $1 LIMIT 1',
    [userId],
  );
  return rows.length > 0;
}
