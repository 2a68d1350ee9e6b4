import type { DataSource, EntityManager } from 'typeorm';
import { deleteObjects } from './object-store.js';

/**
 * Objects the bucket may hold without a row that owns them. An object is written before its row
 * commits (S3 is no part of the transaction), so each upload first records its keys here in a
 * transaction of its own, writes the objects, then deletes its records in the transaction that
 * inserts the row: committed, the records are gone and the row owns the objects; rolled back, the
 * records come back and the sweep deletes the objects. A row that goes (an erasure) records its
 * keys as released in its own transaction, and they are deleted once it commits.
 *
 * The sweep decides under a lock per object group (an image's hash, a private image's id) that
 * uploads take too, and takes the records it may act on with `FOR UPDATE SKIP LOCKED`: a record
 * an uncommitted owning transaction has already deleted is locked, so it is never taken for a
 * leftover, however long that transaction runs.
 */

/** The lock shared by an object group's uploads and its sweep. */
const lockGroup = (manager: Pick<EntityManager, 'query'>, group: string) =>
  manager.query("SELECT pg_advisory_xact_lock(hashtext('media-object:' || $1))", [group]);

/** The group of a key: `public/<sha256>-<width>.webp` → the hash, `private/<id>.jpg` → the id. */
export function objectGroup(key: string): string {
  const name = key.slice(key.indexOf('/') + 1);
  return name.split(key.startsWith('private/') ? '.' : /[-.]/, 1)[0]!;
}

/**
 * Records an upload's keys in their own committed transaction, before any is written; answers the
 * records' ids, which the owning transaction then deletes with {@link claimUpload}.
 */
export async function recordUpload(dataSource: DataSource, group: string, keys: readonly string[]) {
  return dataSource.transaction(async (manager) => {
    await lockGroup(manager, group);
    const rows: Array<{ id: string }> = await manager.query(
      `INSERT INTO media_pending_objects (key, kind) SELECT unnest($1::text[]), 'upload' RETURNING id`,
      [keys],
    );
    return rows.map((row) => row.id);
  });
}

/**
 * In the transaction that inserts the owning row: the upload's records go with its commit. A record
 * already gone was swept (the upload outlived MEDIA_UPLOAD_GRACE_MINUTES) and its object may be
 * too: the upload fails rather than commit a row without its bytes.
 */
export async function claimUpload(manager: Pick<EntityManager, 'query'>, ids: readonly string[]) {
  const [{ n }] = await manager.query(
    'WITH gone AS (DELETE FROM media_pending_objects WHERE id = ANY($1::bigint[]) RETURNING 1) SELECT count(*)::int AS n FROM gone',
    [ids],
  );
  if (n !== ids.length) throw new Error('The image upload took too long: its objects were swept');
}

/** In the transaction that deletes rows: their objects are to go once it commits. */
export async function releaseObjects(manager: Pick<EntityManager, 'query'>, keys: readonly string[]) {
  if (keys.length === 0) return;
  await manager.query(`INSERT INTO media_pending_objects (key, kind) SELECT unnest($1::text[]), 'release'`, [
    keys,
  ]);
}

/** Whether a committed row holds the object under `key` in the bucket. */
async function owned(manager: Pick<EntityManager, 'query'>, key: string): Promise<boolean> {
  const group = objectGroup(key);
  const [row] = key.startsWith('private/')
    ? await manager.query("SELECT 1 FROM private_media WHERE id::text = $1 AND storage = 's3'", [group])
    : await manager.query("SELECT 1 FROM media WHERE sha256 = $1 AND storage = 's3'", [group]);
  return row !== undefined;
}

/**
 * Deletes the objects no row holds: those released (at once) and those of uploads recorded more
 * than `graceMinutes` ago whose row never committed. Answers how many objects went. Runs in the
 * workers on a schedule, and after an erasure commits (graceMinutes then only matters for uploads).
 */
export async function sweepMediaObjects(
  dataSource: DataSource,
  graceMinutes: number,
  onlyReleased = false,
): Promise<number> {
  let deleted = 0;
  const seen = new Set<string>();
  for (;;) {
    const due: Array<{ key: string }> = await dataSource.query(
      `SELECT DISTINCT key FROM media_pending_objects
       WHERE (kind = 'release' OR ($2 = false AND created_at < now() - make_interval(mins => $1)))
         AND NOT (key = ANY($3::text[]))
       LIMIT 100`,
      [graceMinutes, onlyReleased, [...seen]],
    );
    if (due.length === 0) return deleted;
    for (const { key } of due) {
      seen.add(key);
      const gone = await dataSource.transaction(async (manager) => {
        await lockGroup(manager, objectGroup(key));
        const taken: Array<{ id: string }> = await manager.query(
          `SELECT id FROM media_pending_objects
           WHERE key = $1 AND (kind = 'release' OR created_at < now() - make_interval(mins => $2))
           FOR UPDATE SKIP LOCKED`,
          [key, graceMinutes],
        );
        if (taken.length === 0) return false;
        // Another upload of the same key still in progress, or one whose owner has not committed.
        const [{ n: others }] = await manager.query(
          `SELECT count(*)::int AS n FROM media_pending_objects
           WHERE key = $1 AND kind = 'upload' AND NOT (id = ANY($2::bigint[]))`,
          [key, taken.map((row) => row.id)],
        );
        const remove = others === 0 && !(await owned(manager, key));
        // Deleted while the lock is held, so no upload of the group records itself meanwhile.
        if (remove) await deleteObjects([key]);
        await manager.query('DELETE FROM media_pending_objects WHERE id = ANY($1::bigint[])', [
          taken.map((row) => row.id),
        ]);
        return remove;
      });
      if (gone) deleted += 1;
    }
  }
}

/**
 * Deletes the objects released by transactions that committed (an erasure's invoices), at once
 * rather than at the next sweep. Uploads are left to the sweep and its grace.
 */
export const deleteReleasedObjects = (dataSource: DataSource) =>
  sweepMediaObjects(dataSource, RELEASED_ONLY_GRACE_MINUTES, true);

/** A grace no upload record reaches: only released objects are taken. */
const RELEASED_ONLY_GRACE_MINUTES = 100 * 365 * 24 * 60;
