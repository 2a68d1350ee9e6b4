import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { madeWidths, publicKey, publicObjects } from './media.js';
import { objectBytes, PRIVATE_CACHE_CONTROL, putObjects, type StoredObject } from './object-store.js';
import { claimUpload, deleteReleasedObjects, recordUpload, releaseObjects } from './pending-objects.js';
import { privateKey } from './private-media.js';
import { fallbackFormat, keepVariants, keptVariants, makeVariants, type Variant } from './variants.js';

export interface MoveOutcome {
  images: number;
  privateImages: number;
  /** Images whose copies were made on the way (stored before copies were made on storing). */
  variantsMade: number;
}

interface PublicRow {
  id: string;
  sha256: string;
  contentType: string;
  variantWidths: number[] | null;
}

const PUBLIC_COLUMNS = 'id, sha256, content_type AS "contentType", variant_widths AS "variantWidths"';

/**
 * Moves every image, public and private, to `to`, one image at a time, each switched in its own
 * transaction once its bytes are written and read back where they go: a run stopped anywhere
 * leaves every image whole in one place or the other, and the next run carries on with those not
 * moved yet (batches of `batch` rows). Moving to the bucket clears the rows' bytes; moving back
 * releases the objects, deleted once the rows commit. Images stored before copies were made on
 * storing get theirs on the way; `--to database` on an installation already in the database makes
 * just those copies.
 */
export async function moveImages(
  dataSource: DataSource,
  to: 'database' | 's3',
  batch = 100,
  log: (line: string) => void = () => undefined,
): Promise<MoveOutcome> {
  const outcome: MoveOutcome = { images: 0, privateImages: 0, variantsMade: 0 };
  const from = to === 's3' ? 'database' : 's3';
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows: PublicRow[] = await dataSource.query(
      `SELECT ${PUBLIC_COLUMNS} FROM media
       WHERE id > $1 AND (storage = $2 OR (storage = $3 AND variant_widths IS NULL))
       ORDER BY id LIMIT $4`,
      [after, from, to, batch],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      if (row.variantWidths === null) outcome.variantsMade += 1;
      if (to === 's3') await publicToBucket(dataSource, row);
      else await publicToDatabase(dataSource, row);
      outcome.images += 1;
    }
    after = rows.at(-1)!.id;
    log(`${outcome.images} images done`);
  }
  after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows: Array<{ id: string; contentType: string }> = await dataSource.query(
      `SELECT id, content_type AS "contentType" FROM private_media
       WHERE id > $1 AND storage = $2 ORDER BY id LIMIT $3`,
      [after, from, batch],
    );
    if (rows.length === 0) break;
    for (const row of rows) {
      if (to === 's3') await privateToBucket(dataSource, row);
      else await privateToDatabase(dataSource, row);
      outcome.privateImages += 1;
    }
    after = rows.at(-1)!.id;
    log(`${outcome.privateImages} private images done`);
  }
  if (to === 'database') await deleteReleasedObjects(dataSource);
  return outcome;
}

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Writes objects, then reads each back: the row switches only once the bucket holds the same bytes. */
async function writeVerified(objects: readonly StoredObject[]) {
  await putObjects(objects);
  for (const object of objects) {
    const back = await objectBytes(object.key);
    if (!back?.equals(object.bytes)) throw new Error(`${object.key} did not read back as written`);
  }
}

async function readVerified(key: string, sha256?: string): Promise<Buffer> {
  const bytes = await objectBytes(key);
  if (!bytes) throw new Error(`${key} is missing from the bucket`);
  if (sha256 && sha256Of(bytes) !== sha256) throw new Error(`${key} does not hold the image it names`);
  return bytes;
}

async function publicToBucket(dataSource: DataSource, row: PublicRow) {
  const [{ bytes }] = await dataSource.query('SELECT bytes FROM media WHERE id = $1', [row.id]);
  const variants =
    row.variantWidths === null
      ? await makeVariants(bytes, row.contentType)
      : await keptVariants(dataSource.manager, row.id);
  const objects = publicObjects(row.sha256, row.contentType, bytes, variants);
  const records = await recordUpload(
    dataSource,
    row.sha256,
    objects.map((object) => object.key),
  );
  await writeVerified(objects);
  await dataSource.transaction(async (manager) => {
    await claimUpload(manager, records);
    await switchRow(manager, row.id, 'database', {
      storage: 's3',
      bytes: null,
      variantWidths: madeWidths(variants),
    });
    await manager.query('DELETE FROM media_variants WHERE media_id = $1', [row.id]);
  });
}

async function publicToDatabase(dataSource: DataSource, row: PublicRow) {
  const inBucket = (await dataSource.query('SELECT storage FROM media WHERE id = $1', [row.id]))[0].storage;
  if (inBucket === 'database') {
    // Already here, without copies: only they are made.
    const [{ bytes }] = await dataSource.query('SELECT bytes FROM media WHERE id = $1', [row.id]);
    const variants = await makeVariants(bytes, row.contentType);
    await dataSource.transaction(async (manager) => {
      await keepVariants(manager, row.id, variants);
      await switchRow(manager, row.id, 'database', {
        storage: 'database',
        bytes,
        variantWidths: madeWidths(variants),
      });
    });
    return;
  }
  const bytes = await readVerified(publicKey(row.sha256, row.contentType), row.sha256);
  let variants: Variant[] = [];
  if (row.variantWidths === null) variants = await makeVariants(bytes, row.contentType);
  else {
    for (const width of row.variantWidths) {
      for (const format of ['image/webp', fallbackFormat(row.contentType)]) {
        const copy = await readVerified(publicKey(row.sha256, format, width));
        variants.push({ width, contentType: format, bytes: copy });
      }
    }
  }
  await dataSource.transaction(async (manager) => {
    await keepVariants(manager, row.id, variants);
    await switchRow(manager, row.id, 's3', {
      storage: 'database',
      bytes,
      variantWidths: madeWidths(variants),
    });
    await releaseObjects(
      manager,
      publicObjects(row.sha256, row.contentType, bytes, variants).map((object) => object.key),
    );
  });
}

/** Switches one row; a row another run switched meanwhile stops this one. */
async function switchRow(
  manager: EntityManager,
  id: string,
  was: 'database' | 's3',
  now: { storage: 'database' | 's3'; bytes: Buffer | null; variantWidths: number[] },
) {
  const [, changed] = await manager.query(
    'UPDATE media SET storage = $3, bytes = $4, variant_widths = $5 WHERE id = $1 AND storage = $2',
    [id, was, now.storage, now.bytes, now.variantWidths],
  );
  if (changed !== 1) throw new Error(`Image ${id} was moved by another run meanwhile`);
}

async function privateToBucket(dataSource: DataSource, row: { id: string; contentType: string }) {
  const [{ bytes }] = await dataSource.query('SELECT bytes FROM private_media WHERE id = $1', [row.id]);
  const key = privateKey(row.id, row.contentType);
  const records = await recordUpload(dataSource, row.id, [key]);
  await writeVerified([{ key, bytes, contentType: row.contentType, cacheControl: PRIVATE_CACHE_CONTROL }]);
  await dataSource.transaction(async (manager) => {
    await claimUpload(manager, records);
    await switchPrivateRow(manager, row.id, 'database', 's3', null);
  });
}

async function privateToDatabase(dataSource: DataSource, row: { id: string; contentType: string }) {
  const key = privateKey(row.id, row.contentType);
  const bytes = await readVerified(key);
  await dataSource.transaction(async (manager) => {
    await switchPrivateRow(manager, row.id, 's3', 'database', bytes);
    await releaseObjects(manager, [key]);
  });
}

async function switchPrivateRow(
  manager: EntityManager,
  id: string,
  was: 'database' | 's3',
  storage: 'database' | 's3',
  bytes: Buffer | null,
) {
  const [, changed] = await manager.query(
    'UPDATE private_media SET storage = $3, bytes = $4 WHERE id = $1 AND storage = $2',
    [id, was, storage, bytes],
  );
  if (changed !== 1) throw new Error(`Private image ${id} was moved or forgotten meanwhile`);
}
