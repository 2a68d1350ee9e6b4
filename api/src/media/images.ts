import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { IMAGE_RULES } from '../rules/media.js';

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/gif' | 'image/avif';

/** Largest accepted image, in pixels per side: bigger ones are refused before any decoding work. */
export const IMAGE_MAX_SIDE = IMAGE_RULES.maxSide;

let maxMegabytes: number = IMAGE_RULES.defaultMaxMegabytes;

/**
 * Sets the upload limit from the MEDIA_MAX_MB setting. A process-wide value read by plain
 * functions, so every upload path (forms, text images, fetched URLs) applies the same one.
 */
export function configureImageLimit(megabytes: number): void {
  maxMegabytes = megabytes;
}

/** The largest accepted image in bytes, and the message for a larger one. */
export const imageLimit = () => ({
  bytes: maxMegabytes * 1024 * 1024,
  message: IMAGE_RULES.tooLarge(maxMegabytes),
});

/** Tells the image type from the first bytes; the declared type and file name are not trusted. */
export function sniffImageType(bytes: Buffer): ImageType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'image/png';
  }
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return 'image/webp';
  }
  if (bytes.length >= 6 && ['GIF87a', 'GIF89a'].includes(bytes.toString('latin1', 0, 6))) return 'image/gif';
  // An ISO media file whose major brand is an AVIF image or image sequence.
  const brand =
    bytes.length >= 12 && bytes.toString('latin1', 4, 8) === 'ftyp' ? bytes.toString('latin1', 8, 12) : '';
  if (brand === 'avif' || brand === 'avis') return 'image/avif';
  return undefined;
}

/** Accepts an upload as an image or answers the spec's message (400), or 413 when too large. */
export function checkImage(bytes: Buffer, field: string): ImageType {
  const limit = imageLimit();
  if (bytes.length > limit.bytes) {
    throw new PayloadTooLargeException({
      statusCode: 413,
      message: limit.message,
      errors: { [field]: [limit.message] },
    });
  }
  const type = sniffImageType(bytes);
  if (!type) {
    throw new BadRequestException({
      statusCode: 400,
      message: IMAGE_RULES.notImage,
      errors: { [field]: [IMAGE_RULES.notImage] },
    });
  }
  return type;
}

export const IMAGE_TOO_WIDE = IMAGE_RULES.tooWide(IMAGE_MAX_SIDE);

/** Reads the image's size from its header; refuses one too large or one that does not decode. */
export async function checkDimensions(
  bytes: Buffer,
  field: string,
): Promise<{ width: number; height: number }> {
  const { default: sharp } = await import('sharp');
  const metadata = await sharp(bytes, { limitInputPixels: IMAGE_MAX_SIDE * IMAGE_MAX_SIDE })
    .metadata()
    .catch(() => undefined);
  if (!metadata?.width || !metadata.height) {
    throw new BadRequestException({
      statusCode: 400,
      message: IMAGE_RULES.notImage,
      errors: { [field]: [IMAGE_RULES.notImage] },
    });
  }
  if (metadata.width > IMAGE_MAX_SIDE || metadata.height > IMAGE_MAX_SIDE) {
    throw new BadRequestException({
      statusCode: 400,
      message: IMAGE_TOO_WIDE,
      errors: { [field]: [IMAGE_TOO_WIDE] },
    });
  }
  return { width: metadata.width, height: metadata.height };
}
