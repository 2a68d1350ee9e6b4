import type { EntityManager } from 'typeorm';

/** How many logged events still wait for their consumers, and how many failed for good. */
export async function outboxBacklog(
  reader: Pick<EntityManager, 'query'>,
): Promise<{ waiting: number; failed: number }> {
  const [row] = await reader.query(
    `SELECT count(*) FILTER (WHERE processed_at IS NULL AND failed_at IS NULL)::int AS waiting,
            count(*) FILTER (WHERE failed_at IS NOT NULL)::int AS failed
     FROM outbox`,
  );
  return row;
}
