import type { MigrationInterface, QueryRunner } from 'typeorm';

// The store slug rule as this migration ran it; the live rule (rules/addresses.ts) may change
// without changing what this migration did.

/** Longest slug kept. */
const SLUG_MAX_LENGTH = 60;

/** A lower-case, hyphenated form of a name in Latin letters and digits; empty when none. */
function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/g, '');
}

/** A store's slug from its names: never all digits, since `/store/<digits>` is a merchant id. */
function storeSlug(...names: string[]): string {
  const slug = names.map(slugify).find(Boolean) ?? '';
  return /^\d+$/.test(slug) ? `store-${slug}` : slug;
}

/**
 * Every merchant gets a store address (`/store/<slug>`) that search engines can index; the store
 * pages' read model keeps it beside each page so a page is found by it.
 */
export class StoreAddresses1764350000000 implements MigrationInterface {
  name = 'StoreAddresses1764350000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE merchants ADD COLUMN slug text');
    const merchants: Array<{ id: number; brand_name: string; merchant_name: string }> =
      await queryRunner.query('SELECT id, brand_name, merchant_name FROM merchants ORDER BY id');
    const used = new Set<string>();
    for (const merchant of merchants) {
      const base = storeSlug(merchant.brand_name, merchant.merchant_name) || `store-${merchant.id}`;
      let slug = base;
      for (let suffix = 2; used.has(slug); suffix += 1) slug = `${base}-${suffix}`;
      used.add(slug);
      await queryRunner.query('UPDATE merchants SET slug = $2 WHERE id = $1', [merchant.id, slug]);
    }
    await queryRunner.query('ALTER TABLE merchants ADD CONSTRAINT merchants_slug_key UNIQUE (slug)');
    await queryRunner.query('ALTER TABLE store_pages ADD COLUMN slug text');
    await queryRunner.query(
      `UPDATE store_pages p SET slug = m.slug FROM merchants m WHERE m.id = p.merchant_id`,
    );
    await queryRunner.query('CREATE UNIQUE INDEX store_pages_slug ON store_pages (slug)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE store_pages DROP COLUMN slug');
    await queryRunner.query('ALTER TABLE merchants DROP COLUMN slug');
  }
}
