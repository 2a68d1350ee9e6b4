import type { EntityManager } from 'typeorm';
import type { HomeContent } from './answers.js';

/** The home content document as its projection last built it; undefined before its first build. */
export async function homeContentDocument(
  reader: Pick<EntityManager, 'query'>,
): Promise<HomeContent | undefined> {
  const [row] = await reader.query('SELECT document FROM home_content WHERE id = 1');
  return row?.document;
}
