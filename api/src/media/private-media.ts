/**
 * Images only their owner and admins may see (a shopper's invoice): kept in `private_media` (their
 * bytes in the row, or with MEDIA_STORE=s3 under the bucket's `private/` prefix, which is never
 * public), never under the public `/api/media` path nor in any cache, and served by the feature
 * that knows whose they are, with `Cache-Control: private, no-store`.
 */
import { randomUUID } from 'node:crypto';
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { checkDimensions, IMAGE_MAX_PIXELS, type ImageType, sniffImageType } from './images.js';
import { mediaStorage, objectBytes, PRIVATE_CACHE_CONTROL, putObjects } from './object-store.js';
import { claimUpload, recordUpload, releaseObjects } from './pending-objects.js';

type Reader = Pick<EntityManager, 'query'>;

/** A private image's key in the bucket: its row's id, nothing a visitor could guess or list. */
export const privateKey = (id: string, contentType: string) =>
  `private/${id}.${contentType === 'image/png' ? 'png' : contentType === 'image/webp' ? 'webp' : 'jpg'}`;

export interface PrivateImageRules {
  maxBytes: number;
  /** The image types taken; anything else, whatever its name says, is refused. */
  types: readonly ImageType[];
  notImage: string;
  tooLarge: string;
}

/**
 * Checks an upload by its bytes (type, size, dimensions) and re-encodes it whatever it carries:
 * orientation applied to the pixels, no EXIF, GPS, XMP, IPTC or colour profile left. A receipt
 * photographed at home tells nobody where home is, even the admins who read it. Answers its id.
 */
export async function storePrivateImage(
  manager: Pick<EntityManager, 'query' | 'connection'>,
  sent: Buffer,
  field: string,
  rules: PrivateImageRules,
): Promise<string> {
  if (sent.length > rules.maxBytes) {
    throw new PayloadTooLargeException({
      statusCode: 413,
      message: rules.tooLarge,
      errors: { [field]: [rules.tooLarge] },
    });
  }
  const type = sniffImageType(sent);
  if (!type || !rules.types.includes(type)) {
    throw new BadRequestException({
      statusCode: 400,
      message: rules.notImage,
      errors: { [field]: [rules.notImage] },
    });
  }
  await checkDimensions(sent, field);
  const { default: sharp } = await import('sharp');
  const image = sharp(sent, { limitInputPixels: IMAGE_MAX_PIXELS }).rotate();
  // Sharp writes no metadata unless asked (withMetadata, keepExif, keepIccProfile): none is asked.
  const encoded =
    type === 'image/png'
      ? image.png()
      : type === 'image/webp'
        ? image.webp({ quality: 90 })
        : image.jpeg({ quality: 90, mozjpeg: true });
  const bytes = await encoded.toBuffer().catch(() => {
    throw new BadRequestException({
      statusCode: 400,
      message: rules.notImage,
      errors: { [field]: [rules.notImage] },
    });
  });
  const contentType = type === 'image/png' || type === 'image/webp' ? type : 'image/jpeg';
  if (mediaStorage() === 's3') {
    const id = randomUUID();
    const key = privateKey(id, contentType);
    const records = await recordUpload(manager.connection, id, [key]);
    await putObjects([{ key, bytes, contentType, cacheControl: PRIVATE_CACHE_CONTROL }]);
    await claimUpload(manager, records);
    await manager.query(
      "INSERT INTO private_media (id, content_type, size, bytes, storage) VALUES ($1, $2, $3, NULL, 's3')",
      [id, contentType, bytes.length],
    );
    return id;
  }
  const [row] = await manager.query(
    'INSERT INTO private_media (content_type, size, bytes) VALUES ($1, $2, $3) RETURNING id',
    [contentType, bytes.length, bytes],
  );
  return row.id as string;
}

/** A private image's type and bytes, or undefined. */
export async function privateImage(
  reader: Reader,
  id: string,
): Promise<{ contentType: string; bytes: Buffer } | undefined> {
  const [row] = await reader.query(
    'SELECT content_type AS "contentType", storage, bytes FROM private_media WHERE id = $1',
    [id],
  );
  if (!row) return undefined;
  if (row.storage === 'database') return { contentType: row.contentType, bytes: row.bytes };
  const bytes = await objectBytes(privateKey(id, row.contentType));
  return bytes && { contentType: row.contentType, bytes };
}

/**
 * Deletes private images whose owner is being forgotten, in the erasure's transaction: the rows go,
 * and the objects of those in the bucket are released, to be deleted once the transaction commits
 * (see pending-objects.ts; a rolled-back erasure keeps both). Answers how many went.
 */
export async function forgetPrivateImages(manager: EntityManager, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const gone: Array<{ id: string; contentType: string; storage: string }> = await manager.query(
    `WITH gone AS (DELETE FROM private_media WHERE id = ANY($1::uuid[])
                   RETURNING id, content_type AS "contentType", storage)
     SELECT * FROM gone`,
    [ids],
  );
  await releaseObjects(
    manager,
    gone.filter((row) => row.storage === 's3').map((row) => privateKey(row.id, row.contentType)),
  );
  return gone.length;
}
