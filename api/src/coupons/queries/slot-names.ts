import type { EntityManager } from 'typeorm';

type Reader = Pick<EntityManager, 'query'>;

/** The slots' names, by id, in one statement (slots that do not exist are left out). */
export async function slotNames(reader: Reader, slotIds: readonly number[]): Promise<Map<number, string>> {
  if (slotIds.length === 0) return new Map();
  const rows: Array<{ id: number; name: string }> = await reader.query(
    'SELECT id, name FROM slots WHERE id = ANY($1::int[])',
    [slotIds],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

/**
 * The free slot with the most seats (the free listing; paid slots are sold to merchants), the
 * oldest on a tie; undefined when there is no free slot.
 */
export async function largestFreeSlot(reader: Reader): Promise<number | undefined> {
  const [row]: Array<{ id: number }> = await reader.query(
    "SELECT id FROM slots WHERE kind = 'free' ORDER BY capacity DESC, id LIMIT 1",
  );
  return row?.id;
}

export async function slotExists(reader: Reader, id: number): Promise<boolean> {
  const rows: unknown[] = await reader.query('SELECT 1 FROM slots WHERE id = $1', [id]);
  return rows.length > 0;
}
