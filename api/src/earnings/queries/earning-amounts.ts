import type { EntityManager } from 'typeorm';

/**
 * An earning's amount in paise, 0 when there is no such earning. For readers of events recorded
 * before their payload carried it (an earning's amount never changes once recorded).
 */
export async function earningAmountPaise(
  reader: Pick<EntityManager, 'query'>,
  earningId: number,
): Promise<number> {
  const [row] = await reader.query('SELECT amount_paise AS "amountPaise" FROM earnings WHERE id = $1', [
    earningId,
  ]);
  return Number(row?.amountPaise ?? 0);
}
