import type { EntityManager } from 'typeorm';

type Reader = Pick<EntityManager, 'query'>;

/**
 * Which of these idempotency keys have a mail recorded, in one statement: features that mail at
 * most once per key and period (a shopper's digest of the day, a store alert) ask before they
 * gather what the mail would say.
 */
export async function recordedMailKeys(reader: Reader, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows: Array<{ key: string }> = await reader.query(
    'SELECT idempotency_key AS key FROM outgoing_mails WHERE idempotency_key = ANY($1::text[])',
    [keys],
  );
  return new Set(rows.map((row) => row.key));
}
