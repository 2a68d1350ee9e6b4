import type { FastifyRequest } from 'fastify';
import { readFormWithImages } from '../media/image-forms.js';
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

/** A storefront form with its images; the older client's merchant id and read-only fields dropped. */
export const readStorefrontForm = (
  request: FastifyRequest,
  imageFields: readonly string[],
  readOnly: readonly string[] = [],
) => readFormWithImages(request, imageFields, [...IGNORED, ...readOnly]);

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
