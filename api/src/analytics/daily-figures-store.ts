import type { EntityManager } from 'typeorm';

/**
 * Empties `daily_figures` for a replay of the log. DELETE rather than TRUNCATE: dashboards keep
 * reading the old figures while the log replays.
 */
export async function emptyDailyFigures(manager: EntityManager): Promise<void> {
  await manager.query('DELETE FROM daily_figures');
}
