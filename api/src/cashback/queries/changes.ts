/** SQL that changes stores' cashback and writes its history. */
import type {
  CashbackChangeOrigin,
  CashbackChangeScope,
  CashbackTexts,
  StoredRate,
} from '../../rules/cashback.js';
import { CASHBACK_CHANNEL } from '../events/cashback-events.js';
import type { Reader } from './rates.js';

/**
 * Tells every process, at commit, that what shoppers are shown of cashback changed: the coupon
 * lists, store pages and suggestions that carry it are kept ready until then. Rates change
 * rarely (an admin's save), so the notification's lock at commit costs nothing that matters.
 */
const notifyShown = (manager: Reader) => manager.query(`SELECT pg_notify('${CASHBACK_CHANNEL}', '')`);

/** Who made a change: an admin, or an admin accepting a feed's proposal. */
export interface CashbackAuthor {
  origin: Exclude<CashbackChangeOrigin, 'migration'>;
  adminId: number;
  proposalId?: number;
  note?: string | null;
}

export interface HistoryEntry {
  storeId: number;
  scope: CashbackChangeScope;
  categoryKey?: string;
  categoryName?: string;
  couponId?: number;
  /** Rates only: the rate in force from now (null: removed). */
  rate?: StoredRate | null;
  changes: Record<string, { from: unknown; to: unknown }>;
}

/** Appends one entry to the store's history, in force from the transaction's time; answers its id. */
export async function insertHistoryEntry(
  manager: Reader,
  entry: HistoryEntry,
  author: CashbackAuthor,
): Promise<number> {
  const [row] = await manager.query(
    `INSERT INTO cashback_changes (merchant_id, scope, category_key, category_name, coupon_id, rate_kind, rate_value,
                                   changes, origin, admin_id, proposal_id, note)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [
      entry.storeId,
      entry.scope,
      entry.categoryKey ?? null,
      entry.categoryName ?? null,
      entry.couponId ?? null,
      entry.rate?.kind ?? null,
      entry.rate?.value ?? null,
      JSON.stringify(entry.changes),
      author.origin,
      author.adminId,
      author.proposalId ?? null,
      author.note ?? null,
    ],
  );
  return Number(row.id);
}

export async function setStoreBaseRate(manager: Reader, storeId: number, rate: StoredRate | null) {
  await manager.query(
    'UPDATE store_cashback SET rate_kind = $2, rate_value = $3, updated_at = now() WHERE merchant_id = $1',
    [storeId, rate?.kind ?? null, rate?.value ?? null],
  );
  await notifyShown(manager);
}

export interface StoreSettings {
  terms: CashbackTexts;
  exclusions: CashbackTexts;
  confirmDays: number;
  claimWindowDays: number;
  capPaise: number | null;
}

export async function setStoreSettings(manager: Reader, storeId: number, settings: StoreSettings) {
  await manager.query(
    `UPDATE store_cashback SET terms = $2, exclusions = $3, confirm_days = $4, claim_window_days = $5,
                               cap_paise = $6, updated_at = now()
     WHERE merchant_id = $1`,
    [
      storeId,
      JSON.stringify(settings.terms),
      JSON.stringify(settings.exclusions),
      settings.confirmDays,
      settings.claimWindowDays,
      settings.capPaise,
    ],
  );
  await notifyShown(manager);
}

/** Sets a category's rate (a new category, or a new rate or spelling); null removes it. */
export async function setCategoryRate(
  manager: Reader,
  storeId: number,
  key: string,
  name: string,
  rate: StoredRate | null,
) {
  if (rate === null) {
    await manager.query('DELETE FROM store_category_cashback WHERE merchant_id = $1 AND category_key = $2', [
      storeId,
      key,
    ]);
  } else {
    await manager.query(
      `INSERT INTO store_category_cashback (merchant_id, category_key, category_name, rate_kind, rate_value)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (merchant_id, category_key)
       DO UPDATE SET category_name = excluded.category_name, rate_kind = excluded.rate_kind,
                     rate_value = excluded.rate_value`,
      [storeId, key, name, rate.kind, rate.value],
    );
  }
  await manager.query('UPDATE store_cashback SET updated_at = now() WHERE merchant_id = $1', [storeId]);
  await notifyShown(manager);
}

/** Sets a coupon's own rate; null removes it (its store's rates apply). */
export async function setCouponRate(
  manager: Reader,
  couponId: number,
  storeId: number,
  rate: StoredRate | null,
) {
  if (rate === null) {
    await manager.query('DELETE FROM coupon_cashback WHERE coupon_id = $1', [couponId]);
  } else {
    await manager.query(
      `INSERT INTO coupon_cashback (coupon_id, merchant_id, rate_kind, rate_value) VALUES ($1, $2, $3, $4)
       ON CONFLICT (coupon_id) DO UPDATE SET rate_kind = excluded.rate_kind, rate_value = excluded.rate_value`,
      [couponId, storeId, rate.kind, rate.value],
    );
  }
  await notifyShown(manager);
}
