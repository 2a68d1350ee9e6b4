import type { DataSource, EntityManager } from 'typeorm';
import { MEDIA_WIDTHS } from '../rules/media.js';
import { IMAGE_MAX_PIXELS } from './images.js';

/** The widths a resized copy may have (one list for the API and the web apps' `srcset`s). */
export const VARIANT_WIDTHS = MEDIA_WIDTHS;

let resizes = 0;
/** Resizes this process has made (tests read it to prove how many an image costs). */
export const resizeCount = () => resizes;

export interface Variant {
  width: number;
  contentType: string;
  bytes: Buffer;
}

/**
 * The format of the copies for browsers without WebP: JPEG for a JPEG, PNG for anything else
 * (transparency kept).
 */
export const fallbackFormat = (contentType: string) =>
  contentType === 'image/jpeg' ? 'image/jpeg' : 'image/png';

/**
 * The widths an image's copies are made at: every width of the list narrower than the image, and
 * the image's own width (a copy is never enlarged, so every wider width asks for that one).
 */
export function widthsFor(imageWidth: number): number[] {
  const narrower = VARIANT_WIDTHS.filter((width) => width < imageWidth);
  return imageWidth > VARIANT_WIDTHS.at(-1)! ? narrower : [...narrower, imageWidth];
}

/** The copy that answers a request for `width`: the made width it asks for, or the widest made. */
export function madeWidthFor(made: readonly number[], width: number): number {
  return made.find((candidate) => candidate >= width) ?? made.at(-1)!;
}

/**
 * Every copy of an image, made when it is stored (never on a visitor's request, so a page of new
 * images costs no CPU at serving time): at each width of {@link widthsFor}, as WebP and in the
 * fallback format.
 */
export async function makeVariants(bytes: Buffer, contentType: string): Promise<Variant[]> {
  const { default: sharp } = await import('sharp');
  const metadata = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS }).metadata();
  // EXIF orientations 5 to 8 turn the picture a quarter: its width is the stored height.
  const width = (metadata.orientation ?? 1) >= 5 ? metadata.height : metadata.width;
  const variants: Variant[] = [];
  for (const made of widthsFor(width)) {
    for (const format of ['image/webp', fallbackFormat(contentType)]) {
      resizes += 1;
      const resized = sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS })
        .rotate()
        .resize({ width: made, withoutEnlargement: true });
      const output = await (format === 'image/webp'
        ? resized.webp()
        : format === 'image/jpeg'
          ? resized.jpeg()
          : resized.png()
      ).toBuffer();
      variants.push({ width: made, contentType: format, bytes: output });
    }
  }
  return variants;
}

/** Keeps an image's copies in the database (the database store). */
export async function keepVariants(
  manager: EntityManager,
  mediaId: string,
  variants: Variant[],
): Promise<void> {
  await manager.query('DELETE FROM media_variants WHERE media_id = $1', [mediaId]);
  for (const variant of variants) {
    await manager.query(
      'INSERT INTO media_variants (media_id, width, content_type, bytes) VALUES ($1, $2, $3, $4)',
      [mediaId, variant.width, variant.contentType, variant.bytes],
    );
  }
}

/** A copy kept in the database, or undefined. */
export async function keptVariant(
  dataSource: DataSource,
  id: string,
  width: number,
  format: string,
): Promise<Buffer | undefined> {
  const [kept] = await dataSource.query(
    'SELECT bytes FROM media_variants WHERE media_id = $1 AND width = $2 AND content_type = $3',
    [id, width, format],
  );
  return kept?.bytes;
}

/** The database's copies of an image (what the move command writes to the bucket). */
export async function keptVariants(manager: Pick<EntityManager, 'query'>, id: string): Promise<Variant[]> {
  return manager.query(
    'SELECT width, content_type AS "contentType", bytes FROM media_variants WHERE media_id = $1 ORDER BY width, content_type',
    [id],
  );
}
