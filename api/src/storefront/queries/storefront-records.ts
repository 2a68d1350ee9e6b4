import type { EntityManager } from 'typeorm';
import { merchantsAsStores } from '../../identity/queries/store-identities.js';
import { mediaUrl } from '../../media/media.js';
import { paiseToRupees } from '../../rules/money.js';
import type { MerchantCategory, MerchantStore } from '../entities/storefront.entities.js';
import type { ProductImages } from './answers.js';

export type { ProductImages };

/** A product as its merchant and the admins see it: review state included. */
export interface ProductRecord {
  id: number;
  merchantId: number;
  merchantName: string;
  categoryId: number | null;
  categoryName: string | null;
  productName: string;
  brand: string;
  description: string;
  price: string;
  merchantUrl: string | null;
  images: ProductImages;
  /** The medium size: the one picture of the approval list. */
  imageUrl: string | null;
  status: string;
  approved: boolean;
  rejectionReason: string | null;
  advisedChanges: string | null;
  submittedAt: string;
  reviewedAt: string | null;
  updatedAt: string;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** Full records of the given products, in the order of `ids`. */
export async function productRecords(manager: EntityManager, ids: number[]): Promise<ProductRecord[]> {
  if (ids.length === 0) return [];
  const rows = await manager.query(
    `SELECT p.*, p.price_paise::bigint::text AS price_text, c.category_name
     FROM products p
     LEFT JOIN merchant_categories c ON c.id = p.category_id
     WHERE p.id = ANY($1::int[])`,
    [ids],
  );
  const merchants = await merchantsAsStores(
    manager,
    rows.map((row: { merchant_id: number }) => row.merchant_id),
  );
  const byId = new Map<number, ProductRecord>(
    rows.map((row: Record<string, never>) => [
      row.id,
      {
        id: row.id,
        merchantId: row.merchant_id,
        // Every product has its merchant (a foreign key).
        merchantName: merchants.get(row.merchant_id)!.merchantName,
        categoryId: row.category_id,
        categoryName: row.category_name,
        productName: row.product_name,
        brand: row.brand,
        description: row.description,
        price: paiseToRupees(Number(row.price_text)),
        merchantUrl: row.merchant_url,
        images: {
          small: mediaUrl(row.image_small_id),
          medium: mediaUrl(row.image_medium_id),
          large: mediaUrl(row.image_large_id),
        },
        imageUrl: mediaUrl(row.image_medium_id),
        status: row.status,
        approved: row.status === 'approved',
        rejectionReason: row.rejection_reason,
        advisedChanges: row.advised_changes,
        submittedAt: iso(row.submitted_at)!,
        reviewedAt: iso(row.reviewed_at),
        updatedAt: iso(row.updated_at)!,
      },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A react-admin page of products: the records in page order, and the total. */
export async function productRecordsPage(
  manager: EntityManager,
  [products, total]: [Array<{ id: number }>, number],
): Promise<{ rows: ProductRecord[]; total: number }> {
  const rows = await productRecords(
    manager,
    products.map((product) => product.id),
  );
  return { rows, total };
}

/** Categories as their merchant sees them, with how many products each holds (one can be deleted at 0). */
export async function categoryRecords(manager: EntityManager, categories: MerchantCategory[]) {
  const counts: Array<{ category_id: number; n: number }> = categories.length
    ? await manager.query(
        'SELECT category_id, count(*)::int AS n FROM products WHERE category_id = ANY($1::int[]) GROUP BY category_id',
        [categories.map((category) => category.id)],
      )
    : [];
  const countOf = new Map(counts.map((row) => [row.category_id, row.n]));
  return categories.map((category) => ({
    id: category.id,
    merchantId: category.merchantId,
    categoryName: category.categoryName,
    description: category.description,
    isActive: category.isActive,
    productCount: countOf.get(category.id) ?? 0,
    createdAt: category.createdAt.toISOString(),
    updatedAt: category.updatedAt.toISOString(),
  }));
}

/** The merchant's store as its edit form shows it; a blank one before the first save. */
export function storeRecord(merchantId: number, store: MerchantStore | null) {
  return {
    id: merchantId,
    storeId: store?.id ?? null,
    merchantId,
    storeName: store?.storeName ?? '',
    storeAddress: store?.storeAddress ?? '',
    tagline: store?.tagline ?? '',
    aboutDescription: store?.aboutDescription ?? '',
    isActive: store?.isActive ?? true,
    logoUrl: mediaUrl(store?.merchantLogoId),
    landingBannerUrl: mediaUrl(store?.landingBannerId),
    heroBannerUrl: mediaUrl(store?.heroBannerImageId),
    createdDate: store ? store.createdDate.toISOString() : null,
    updatedDate: store ? store.updatedDate.toISOString() : null,
  };
}
