import type { DataSource } from 'typeorm';
import { MEDIA_WIDTHS } from '../rules/media.js';
import { IMAGE_MAX_PIXELS } from './images.js';

/** The widths a resized copy may have (one list for the API and the web apps' `srcset`s). */
export const VARIANT_WIDTHS = MEDIA_WIDTHS;

let resizes = 0;
/** Resizes this process has made (tests read it to prove concurrent requests share one). */
export const resizeCount = () => resizes;

const KEPT = 'SELECT bytes FROM media_variants WHERE media_id = $1 AND width = $2 AND content_type = $3';

/**
 * A stored image at most `width` wide, made once and kept. Making one costs CPU by the pixel, so
 * an image is resized by at most one request at a time across every API process: the first takes
 * a transaction-level advisory lock on the image, others wait for it and then read what it stored
 * instead of resizing the same picture again.
 */
export async function imageVariant(dataSource: DataSource, id: string, width: number, format: string) {
  const [kept] = await dataSource.query(KEPT, [id, width, format]);
  if (kept) return kept.bytes as Buffer;
  return dataSource.transaction(async (manager) => {
    await manager.query("SELECT pg_advisory_xact_lock(hashtext('media-variant:' || $1))", [id]);
    const [madeMeanwhile] = await manager.query(KEPT, [id, width, format]);
    if (madeMeanwhile) return madeMeanwhile.bytes as Buffer;
    const [{ bytes }] = await manager.query('SELECT bytes FROM media WHERE id = $1', [id]);
    const { default: sharp } = await import('sharp');
    resizes += 1;
    const resized = sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS })
      .rotate()
      .resize({ width, withoutEnlargement: true });
    const output = await (format === 'image/webp'
      ? resized.webp()
      : format === 'image/jpeg'
        ? resized.jpeg()
        : resized.png()
    ).toBuffer();
    await manager.query(
      'INSERT INTO media_variants (media_id, width, content_type, bytes) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
      [id, width, format, output],
    );
    return output;
  });
}
