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
export const IMAGE_MAX_PIXELS = IMAGE_RULES.maxMegapixels * 1_000_000;
export const IMAGE_TOO_MANY_PIXELS = IMAGE_RULES.tooManyPixels(IMAGE_RULES.maxMegapixels);

/** Reads the image's size from its header; refuses one too large or one that does not decode. */
export async function checkDimensions(
  bytes: Buffer,
  field: string,
): Promise<{ width: number; height: number }> {
  const { default: sharp } = await import('sharp');
  // Reading the header decodes nothing; the pixel limit is checked below with its own message.
  const metadata = await sharp(bytes, { limitInputPixels: false })
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
  if (metadata.width * metadata.height > IMAGE_MAX_PIXELS) {
    throw new BadRequestException({
      statusCode: 400,
      message: IMAGE_TOO_MANY_PIXELS,
      errors: { [field]: [IMAGE_TOO_MANY_PIXELS] },
    });
  }
  return { width: metadata.width, height: metadata.height };
}

/**
 * The original as it is stored: the EXIF orientation applied to the pixels, and every piece of
 * metadata (EXIF with its GPS position, XMP, IPTC) left out, so a photo taken at home does not tell
 * every visitor where home is. Images without such metadata are kept byte for byte; GIFs carry
 * none and are kept as sent (re-encoding would flatten animations).
 */
export async function withoutMetadata(bytes: Buffer, type: ImageType): Promise<Buffer> {
  if (type === 'image/gif') return bytes;
  const { default: sharp } = await import('sharp');
  const metadata = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS }).metadata();
  const carries = metadata.exif || metadata.xmp || metadata.iptc || (metadata.orientation ?? 1) !== 1;
  if (!carries) return bytes;
  // Sharp writes no metadata unless asked to; the colour profile is kept so colours stay true.
  const image = sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS }).rotate().keepIccProfile();
  const encoded =
    type === 'image/jpeg'
      ? image.jpeg({ quality: 92, mozjpeg: true })
      : type === 'image/png'
        ? image.png()
        : type === 'image/webp'
          ? image.webp({ quality: 92 })
          : image.avif();
  return encoded.toBuffer();
}
