import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { checkDimensions, checkImage, withoutMetadata } from './images.js';
import { mediaStorage, PUBLIC_CACHE_CONTROL, putObjects, type StoredObject } from './object-store.js';
import { claimUpload, recordUpload, releaseObjects } from './pending-objects.js';
import { keepVariants, makeVariants, type Variant } from './variants.js';

/** The public address of a stored image; lists carry this, never the bytes. */
export const mediaUrl = (id: string | null | undefined) => (id ? `/api/media/${id}` : null);

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
};

/**
 * The bucket key of a public image or of one of its copies. Named by the content's hash, so a key
 * never changes its bytes (cacheable for ever) and the same upload twice is the same object.
 */
export const publicKey = (sha256: string, contentType: string, width?: number) =>
  `public/${sha256}${width === undefined ? '' : `-${width}`}.${EXTENSIONS[contentType] ?? 'bin'}`;

/** Every object of a public image in the bucket: the original and its copies. */
export const publicObjects = (
  sha256: string,
  contentType: string,
  bytes: Buffer,
  variants: readonly Variant[],
): StoredObject[] => [
  { key: publicKey(sha256, contentType), bytes, contentType, cacheControl: PUBLIC_CACHE_CONTROL },
  ...variants.map((variant) => ({
    key: publicKey(sha256, variant.contentType, variant.width),
    bytes: variant.bytes,
    contentType: variant.contentType,
    cacheControl: PUBLIC_CACHE_CONTROL,
  })),
];

/** The widths of the copies made, in order (each width has a WebP and a fallback copy). */
export const madeWidths = (variants: readonly Variant[]) =>
  [...new Set(variants.map((variant) => variant.width))].sort((a, b) => a - b);

/**
 * Stores an uploaded image once (by its SHA-256; the same bytes uploaded twice are one row) and
 * returns its id. Checks it by its bytes first, stores it without its metadata (EXIF, GPS), and
 * makes its resized copies now, in the caller's command, never on a visitor's request. With
 * MEDIA_STORE=s3 the original and its copies go to the bucket before the row is inserted (see
 * pending-objects.ts for what happens to them if the caller's transaction rolls back).
 */
export async function storeImage(manager: EntityManager, sent: Buffer, field: string): Promise<string> {
  const contentType = checkImage(sent, field);
  await checkDimensions(sent, field);
  const bytes = await withoutMetadata(sent, contentType);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const [known] = await manager.query(
    'SELECT id FROM media WHERE sha256 = $1 AND variant_widths IS NOT NULL',
    [sha256],
  );
  if (known) return known.id;
  const variants = await makeVariants(bytes, contentType);
  const widths = madeWidths(variants);
  if (mediaStorage() === 's3') {
    const objects = publicObjects(sha256, contentType, bytes, variants);
    const records = await recordUpload(
      manager.connection,
      sha256,
      objects.map((object) => object.key),
    );
    await putObjects(objects);
    await claimUpload(manager, records);
    const [row] = await manager.query(
      `INSERT INTO media (sha256, content_type, size, bytes, storage, variant_widths)
       VALUES ($1, $2, $3, NULL, 's3', $4)
       ON CONFLICT (sha256) DO UPDATE SET sha256 = EXCLUDED.sha256
       RETURNING id, storage, variant_widths AS "variantWidths"`,
      [sha256, contentType, bytes.length, widths],
    );
    if (row.storage === 'database') {
      // The same image already in the database (stored before, or by an upload at the same
      // moment): the row stays there, with its copies; the objects just written are released.
      if (row.variantWidths === null) await finishInDatabase(manager, row.id, variants);
      await releaseObjects(
        manager,
        objects.map((object) => object.key),
      );
    }
    return row.id;
  }
  // Inserted without its widths, which say its copies are kept: they are written next.
  const [row] = await manager.query(
    `INSERT INTO media (sha256, content_type, size, bytes) VALUES ($1, $2, $3, $4)
     ON CONFLICT (sha256) DO UPDATE SET sha256 = EXCLUDED.sha256
     RETURNING id, storage, variant_widths AS "variantWidths"`,
    [sha256, contentType, bytes.length, bytes],
  );
  if (row.storage === 'database' && row.variantWidths === null)
    await finishInDatabase(manager, row.id, variants);
  return row.id;
}

async function finishInDatabase(manager: EntityManager, id: string, variants: Variant[]) {
  await keepVariants(manager, id, variants);
  await manager.query('UPDATE media SET variant_widths = $2 WHERE id = $1', [id, madeWidths(variants)]);
}

export interface ImageFacts {
  sha256: string;
  contentType: string;
  storage: 'database' | 's3';
  /** The widths of the copies made; null for an image stored before copies were made on storing. */
  variantWidths: number[] | null;
}

/** What serving an image needs first: its hash (the ETag), type and place; undefined for no image. */
export async function imageFacts(dataSource: DataSource, id: string): Promise<ImageFacts | undefined> {
  const [image] = await dataSource.query(
    `SELECT sha256, content_type AS "contentType", storage, variant_widths AS "variantWidths"
     FROM media WHERE id = $1`,
    [id],
  );
  return image;
}

/** The stored image's bytes, when they are in the database. */
export async function imageBytes(dataSource: DataSource, id: string): Promise<Buffer> {
  const [{ bytes }] = await dataSource.query('SELECT bytes FROM media WHERE id = $1', [id]);
  return bytes;
}
