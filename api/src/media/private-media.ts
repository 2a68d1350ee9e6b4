/**
 * Images only their owner and admins may see (a shopper's invoice): kept in `private_media`, never
 * under the public `/api/media` path nor in any cache, and served by the feature that knows whose
 * they are, with `Cache-Control: private, no-store`.
 */
import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { checkDimensions, IMAGE_MAX_PIXELS, type ImageType, sniffImageType } from './images.js';

type Reader = Pick<EntityManager, 'query'>;

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
  manager: Reader,
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
    'SELECT content_type AS "contentType", bytes FROM private_media WHERE id = $1',
    [id],
  );
  return row;
}

/**
 * Deletes private images whose owner is being forgotten: their bytes live only in this table's
 * rows. Answers how many went.
 */
export async function forgetPrivateImages(manager: EntityManager, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const [row] = await manager.query(
    'WITH gone AS (DELETE FROM private_media WHERE id = ANY($1::uuid[]) RETURNING 1) SELECT count(*)::int AS n FROM gone',
    [ids],
  );
  return row.n as number;
}
