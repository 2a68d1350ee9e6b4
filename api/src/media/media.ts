import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { checkDimensions, checkImage, withoutMetadata } from './images.js';

/** The public address of a stored image; lists carry this, never the bytes. */
export const mediaUrl = (id: string | null | undefined) => (id ? `/api/media/${id}` : null);

/**
 * Stores an uploaded image once (by its SHA-256; the same bytes uploaded twice are one row) and
 * returns its id. Checks it by its bytes first, and stores it without its metadata (EXIF, GPS).
 */
export async function storeImage(manager: EntityManager, sent: Buffer, field: string): Promise<string> {
  const contentType = checkImage(sent, field);
  await checkDimensions(sent, field);
  const bytes = await withoutMetadata(sent, contentType);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const [row] = await manager.query(
    `INSERT INTO media (sha256, content_type, size, bytes) VALUES ($1, $2, $3, $4)
     ON CONFLICT (sha256) DO UPDATE SET sha256 = EXCLUDED.sha256
     RETURNING id`,
    [sha256, contentType, bytes.length, bytes],
  );
  return row.id;
}

/** What serving an image needs first: its hash (the ETag) and its type; undefined for no image. */
export async function imageFacts(
  dataSource: DataSource,
  id: string,
): Promise<{ sha256: string; contentType: string } | undefined> {
  const [image] = await dataSource.query(
    'SELECT sha256, content_type AS "contentType" FROM media WHERE id = $1',
    [id],
  );
  return image;
}

/** The stored image's bytes. */
export async function imageBytes(dataSource: DataSource, id: string): Promise<Buffer> {
  const [{ bytes }] = await dataSource.query('SELECT bytes FROM media WHERE id = $1', [id]);
  return bytes;
}
