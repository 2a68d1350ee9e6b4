import { BadRequestException, type Type } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { readForm, validateForm } from '../http/forms.js';
import { INVALID_INPUT_MESSAGE } from '../http/validation.js';
import { takeTextImage } from '../media/image-sources.js';
import { imageLimit } from '../media/images.js';
import { PRODUCT_IMAGE_FIELDS, type ProductImageSize } from '../rules/storefront.js';
import type { ProductImagesInput } from './commands/products.js';

/**
 * Older clients send their merchant id in the form (MerchantID, MerchantId); the session decides
 * it, so it is dropped. react-admin sends whole records back: read-only fields are dropped too.
 */
const IGNORED = ['merchantId', 'merchantID', 'id'];
export const READ_ONLY_STORE_FIELDS = [
  'storeId',
  'storeID',
  'logoUrl',
  'landingBannerUrl',
  'heroBannerUrl',
  'createdDate',
  'updatedDate',
];
export const READ_ONLY_PRODUCT_FIELDS = [
  'merchantName',
  'categoryName',
  'images',
  'imageUrl',
  'status',
  'approved',
  'rejectionReason',
  'advisedChanges',
  'submittedAt',
  'reviewedAt',
  'updatedAt',
];
export const READ_ONLY_CATEGORY_FIELDS = ['productCount', 'createdAt', 'updatedAt'];

/** A form's fields and its images (files, or text in the older client's ways), image fields removed. */
export async function readFormWithImages(
  request: FastifyRequest,
  imageFields: readonly string[],
  readOnly: readonly string[] = [],
): Promise<{ fields: Record<string, unknown>; images: Record<string, Buffer | null | undefined> }> {
  const { fields, files } = await readForm(request, imageFields, imageLimit().bytes + 1, [
    ...IGNORED,
    ...readOnly,
  ]);
  const images: Record<string, Buffer | null | undefined> = {};
  for (const field of imageFields) {
    // JSON null removes an image; a missing or empty field keeps it.
    const cleared = fields[field] === null;
    images[field] = files[field] ?? (await takeTextImage(fields, field)) ?? (cleared ? null : undefined);
  }
  return { fields, images };
}

/** Validates the fields; a missing required image is reported with the other fields' errors. */
export async function validateWithImage<T extends object>(
  dto: Type<T>,
  fields: Record<string, unknown>,
  missingImage?: { field: string; message: string },
): Promise<T> {
  try {
    const form = await validateForm(dto, fields);
    if (missingImage) throw missing(missingImage.field, missingImage.message, {});
    return form;
  } catch (error) {
    if (!missingImage || !(error instanceof BadRequestException)) throw error;
    const body = error.getResponse() as { errors?: Record<string, string[]> };
    throw missing(missingImage.field, missingImage.message, body.errors ?? {});
  }
}

function missing(field: string, message: string, errors: Record<string, string[]>) {
  return new BadRequestException({
    statusCode: 400,
    message: INVALID_INPUT_MESSAGE,
    errors: { ...errors, [field]: [message] },
  });
}

export const PRODUCT_FILE_FIELDS = ['productImage', ...Object.values(PRODUCT_IMAGE_FIELDS)] as const;

/**
 * The product images of a form: ImageSmall, ImageMedium, ImageLarge, or the simple upload's one
 * ProductImage (all three sizes are then made from it).
 */
export function productImages(images: Record<string, Buffer | null | undefined>): ProductImagesInput {
  const bytes: ProductImagesInput['bytes'] = {};
  for (const [size, field] of Object.entries(PRODUCT_IMAGE_FIELDS) as Array<[ProductImageSize, string]>) {
    if (images[field]) bytes[size] = images[field];
  }
  const single = images.productImage;
  if (single && !bytes.large) bytes.large = single;
  return {
    bytes,
    fieldOf: (size) =>
      size === 'large' && single && !images.imageLarge ? 'productImage' : PRODUCT_IMAGE_FIELDS[size],
  };
}
