import type { EntityManager } from 'typeorm';
import { checkDimensions, checkImage } from '../media/images.js';
import { storeImage } from '../media/media.js';
import { PRODUCT_IMAGE_WIDTHS, type ProductImageSize } from '../rules/storefront.js';

export type ProductImageBytes = Partial<Record<ProductImageSize, Buffer>>;
export type ProductImageIds = Record<ProductImageSize, string>;

const SIZES = Object.keys(PRODUCT_IMAGE_WIDTHS) as ProductImageSize[];

/**
 * Stores a product's three sizes. One image given: all three are made from it, at the widths in
 * the rules (never enlarged). Several given: those are kept as given (checked by their bytes) and
 * a missing size is made from the widest. `fieldOf` names the form field for error messages.
 */
export async function storeProductImages(
  manager: EntityManager,
  given: ProductImageBytes,
  fieldOf: (size: ProductImageSize) => string,
): Promise<ProductImageIds | undefined> {
  const present = SIZES.filter((size) => given[size]);
  if (present.length === 0) return undefined;
  let widest: { bytes: Buffer; width: number } | undefined;
  for (const size of present) {
    const bytes = given[size]!;
    checkImage(bytes, fieldOf(size));
    const { width } = await checkDimensions(bytes, fieldOf(size));
    if (!widest || width > widest.width) widest = { bytes, width };
  }
  const ids = {} as ProductImageIds;
  for (const size of SIZES) {
    const kept = present.length > 1 ? given[size] : undefined;
    const bytes = kept ?? (await resized(widest!.bytes, PRODUCT_IMAGE_WIDTHS[size]));
    ids[size] = await storeImage(manager, bytes, fieldOf(kept ? size : present[0]!));
  }
  return ids;
}

/** A copy at most `width` pixels wide (WebP, which every current browser shows), upright. */
async function resized(bytes: Buffer, width: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(bytes).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 82 }).toBuffer();
}
