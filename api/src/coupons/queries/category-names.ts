import type { EntityManager } from 'typeorm';

/**
 * Our categories as other features name them: a feed maps a network's category names to ours, and
 * shows an admin which of ours each is mapped to.
 */

type Reader = Pick<EntityManager, 'query'>;

/** Our category of each of these names (case aside), by the name as given; names with none are left out. */
export async function categoriesNamed(
  reader: Reader,
  names: readonly string[],
): Promise<Map<string, number>> {
  if (names.length === 0) return new Map();
  const rows: Array<{ name: string; id: number }> = await reader.query(
    `SELECT n.name, c.id FROM unnest($1::text[]) AS n(name) JOIN categories c ON lower(c.name) = lower(n.name)`,
    [names],
  );
  return new Map(rows.map((row) => [row.name, row.id]));
}

/** Our category of this name (its case aside), or undefined. */
export async function categoryNamed(reader: Reader, name: string): Promise<number | undefined> {
  return (await categoriesNamed(reader, [name])).get(name);
}

/** The names of these categories, by id (ids of no category are left out). */
export async function categoryNamesOf(reader: Reader, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows: Array<{ id: number; name: string }> = await reader.query(
    'SELECT id, name FROM categories WHERE id = ANY($1::int[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function categoryExists(reader: Reader, categoryId: number): Promise<boolean> {
  return (await reader.query('SELECT 1 FROM categories WHERE id = $1', [categoryId])).length > 0;
}
