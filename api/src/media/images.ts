import { BadRequestException, PayloadTooLargeException } from '@nestjs/common';
import { COUPON_FORM, IMAGE_MAX_BYTES } from '../rules/coupons.js';

export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

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
  return undefined;
}

/** Accepts an upload as an image or answers the spec's message (400), or 413 when too large. */
export function checkImage(bytes: Buffer, field: string): ImageType {
  if (bytes.length > IMAGE_MAX_BYTES) {
    throw new PayloadTooLargeException({
      statusCode: 413,
      message: COUPON_FORM.adPost.tooLarge,
      errors: { [field]: [COUPON_FORM.adPost.tooLarge] },
    });
  }
  const type = sniffImageType(bytes);
  if (!type) {
    throw new BadRequestException({
      statusCode: 400,
      message: COUPON_FORM.adPost.notImage,
      errors: { [field]: [COUPON_FORM.adPost.notImage] },
    });
  }
  return type;
}
