import type { EntityManager } from 'typeorm';

/** When a demo payout's steps happened, in days before now; a step it did not take is left out. */
export interface DemoPayoutDays {
  requested: number;
  processing?: number;
  paid?: number;
}

/**
 * Moves a demo payout's dates into the past, after the commands made it: the demo shows a payout
 * paid a week ago, which no command can do today. Its events are the commands'. Not in production.
 */
export async function backdateDemoPayout(
  manager: Pick<EntityManager, 'query'>,
  payoutId: number,
  days: DemoPayoutDays,
): Promise<void> {
  await manager.query(
    `UPDATE payouts SET requested_at = now() - make_interval(days => $2),
                        processing_at = CASE WHEN $3::int IS NULL THEN processing_at ELSE now() - make_interval(days => $3) END,
                        paid_at = CASE WHEN $4::int IS NULL THEN paid_at ELSE now() - make_interval(days => $4) END
     WHERE id = $1`,
    [payoutId, days.requested, days.processing ?? null, days.paid ?? null],
  );
}
