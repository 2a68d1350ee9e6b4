import type { EntityManager } from 'typeorm';
import type { HomeContent } from './queries/answers.js';

/** Replaces the one `home_content` document the public reads with a newly built one. */
export async function replaceHomeContent(manager: EntityManager, document: HomeContent): Promise<void> {
  await manager.query(
    `INSERT INTO home_content (id, document, built_at) VALUES (1, $1, now())
     ON CONFLICT (id) DO UPDATE SET document = EXCLUDED.document, built_at = EXCLUDED.built_at`,
    [JSON.stringify(document)],
  );
}
