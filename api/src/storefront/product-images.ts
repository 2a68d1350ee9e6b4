import type { EntityManager } from 'typeorm';
import { checkDimensions, checkImage } from '../media/images.js';
import { storeImage } from '../media/media.js';
import { PRODUCT_IMAGE_WIDTHS, type ProductImageSize } from '../rules/storefront.js';

export type ProductImageBytes = Partial<Record<ProductImageSize, Buffer>>;
export type ProductImageIds = Record<ProductImageSize, string>;

/** The three sizes ready to store, each with the form field it came from (for error messages). */
export type PreparedProductImages = Record<ProductImageSize, { bytes: Buffer; field: string }>;

const SIZES = Object.keys(PRODUCT_IMAGE_WIDTHS) as ProductImageSize[];

/**
 * Checks the images given and makes the missing sizes, outside any transaction (resizing takes a
 * while). One image given: all three are made from it, at the widths in the rules (never
 * enlarged). Several given: those are kept as given and a missing size is made from the widest.
 * Undefined when no image was given.
 */
export async function prepareProductImages(
  given: ProductImageBytes,
  fieldOf: (size: ProductImageSize) => string,
): Promise<PreparedProductImages | undefined> {
  const present = SIZES.filter((size) => given[size]);
  if (present.length === 0) return undefined;
  let widest: { bytes: Buffer; width: number; field: string } | undefined;
  for (const size of present) {
    const bytes = given[size]!;
    checkImage(bytes, fieldOf(size));
    const { width } = await checkDimensions(bytes, fieldOf(size));
    if (!widest || width > widest.width) widest = { bytes, width, field: fieldOf(size) };
  }
  const prepared = {} as PreparedProductImages;
  for (const size of SIZES) {
    const kept = present.length > 1 ? given[size] : undefined;
    prepared[size] = kept
      ? { bytes: kept, field: fieldOf(size) }
      : { bytes: await resized(widest!.bytes, PRODUCT_IMAGE_WIDTHS[size]), field: widest!.field };
  }
  return prepared;
}

/** Stores the prepared sizes as media rows (once per distinct image). */
export async function storeProductImages(
  manager: EntityManager,
  prepared: PreparedProductImages | undefined,
): Promise<ProductImageIds | undefined> {
  if (!prepared) return undefined;
  const ids = {} as ProductImageIds;
  for (const size of SIZES) ids[size] = await storeImage(manager, prepared[size].bytes, prepared[size].field);
  return ids;
}

/** A copy at most `width` pixels wide (WebP, which every current browser shows), upright. */
async function resized(bytes: Buffer, width: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(bytes).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 82 }).toBuffer();
}
