/**
 * SQL of stores' cashback as it stands, and as it stood at a click. The two functions other
 * features call are {@link storeCashback} (what a store pays, to show it) and {@link rateAtClick}
 * (what a purchase earns).
 */
import type { EntityManager } from 'typeorm';
import { couponStoreId } from '../../coupons/queries/coupon-records.js';
import { merchantExists } from '../../identity/queries/stores-without-account.js';
import type { Environment } from '../../infrastructure/config/environment.js';
import {
  CASHBACK_LIMITS,
  type CashbackRate,
  type CashbackTexts,
  categoryKey,
  fromStoredRate,
  type RateSource,
  type StoreCashback,
  type StoredRate,
  upToRate,
} from '../../rules/cashback.js';
import { paiseToRupees, rupeesToPaise } from '../../rules/money.js';

export type Reader = Pick<EntityManager, 'query'>;

/** The one setting the rates fall back to: the site's rate for a store without its own. */
export type CashbackDefaults = Pick<Environment, 'CASHBACK_DEFAULT_RATE_PERCENT'>;

/** A rate as SQL answers it: a kind and a bigint value (a string), or two nulls. */
interface RateColumns {
  kind: 'percent' | 'flat' | null;
  value: string | number | null;
}

export const storedRateOf = (row: RateColumns): StoredRate | null =>
  row.kind === null || row.value === null ? null : { kind: row.kind, value: Number(row.value) };

const EMPTY_TEXTS: CashbackTexts = { en: '', hi: '', te: '' };

/** A store's cashback settings as stored; every field as it is when the store has none. */
export interface StoreCashbackState {
  storeId: number;
  base: StoredRate | null;
  categories: Array<{ key: string; name: string; rate: StoredRate }>;
  terms: CashbackTexts;
  exclusions: CashbackTexts;
  confirmDays: number;
  claimWindowDays: number;
  capPaise: number | null;
  updatedAt: Date | null;
}

const STATE = `
  SELECT m.id AS "storeId", s.rate_kind AS kind, s.rate_value AS value, s.terms, s.exclusions,
         s.confirm_days AS "confirmDays", s.claim_window_days AS "claimWindowDays", s.cap_paise AS "capPaise",
         s.updated_at AS "updatedAt",
         coalesce((SELECT json_agg(json_build_object('key', c.category_key, 'name', c.category_name,
                                                     'kind', c.rate_kind, 'value', c.rate_value)
                                   ORDER BY c.category_key)
                   FROM store_category_cashback c WHERE c.merchant_id = m.id), '[]') AS categories
  FROM unnest($1::int[]) AS m(id) LEFT JOIN store_cashback s ON s.merchant_id = m.id`;

interface StateRow extends RateColumns {
  storeId: number;
  terms: CashbackTexts | null;
  exclusions: CashbackTexts | null;
  confirmDays: number | null;
  claimWindowDays: number | null;
  capPaise: string | null;
  updatedAt: Date | null;
  categories: Array<{ key: string; name: string; kind: 'percent' | 'flat'; value: number }>;
}

const stateOf = (row: StateRow): StoreCashbackState => ({
  storeId: row.storeId,
  base: storedRateOf(row),
  categories: row.categories.map((category) => ({
    key: category.key,
    name: category.name,
    rate: { kind: category.kind, value: Number(category.value) },
  })),
  terms: { ...EMPTY_TEXTS, ...row.terms },
  exclusions: { ...EMPTY_TEXTS, ...row.exclusions },
  confirmDays: row.confirmDays ?? CASHBACK_LIMITS.confirmDays.default,
  claimWindowDays: row.claimWindowDays ?? CASHBACK_LIMITS.claimWindowDays.default,
  capPaise: row.capPaise === null ? null : Number(row.capPaise),
  updatedAt: row.updatedAt,
});

/**
 * The stores' cashback settings, by store id. The callers name stores they have (listed, locked or
 * referenced); a store without settings of its own has the defaults.
 */
export async function storeCashbackStates(
  reader: Reader,
  storeIds: readonly number[],
): Promise<Map<number, StoreCashbackState>> {
  if (storeIds.length === 0) return new Map();
  const rows: StateRow[] = await reader.query(STATE, [storeIds]);
  return new Map(rows.map((row) => [row.storeId, stateOf(row)]));
}

/**
 * Takes the store's cashback row (made, without a rate of its own, when it has none) for the rest
 * of the transaction: every change of a store's cashback holds it, so two admins' saves of one
 * store run one after the other and each history entry says what it changed from. False when
 * there is no such store.
 */
export async function lockStoreCashback(manager: Reader, storeId: number): Promise<boolean> {
  if (!(await merchantExists(manager, storeId))) return false;
  await manager.query('INSERT INTO store_cashback (merchant_id) VALUES ($1) ON CONFLICT DO NOTHING', [
    storeId,
  ]);
  const rows = await manager.query('SELECT 1 FROM store_cashback WHERE merchant_id = $1 FOR UPDATE', [
    storeId,
  ]);
  return rows.length > 0;
}

const defaultRate = (defaults: CashbackDefaults): StoredRate => ({
  kind: 'percent',
  value: rupeesToPaise(defaults.CASHBACK_DEFAULT_RATE_PERCENT),
});

/**
 * What each store pays, to show it (the public site's store pages and cards, the claims): its base
 * rate (the site's default, `CASHBACK_DEFAULT_RATE_PERCENT`, when it has none), its category rates,
 * "up to" (the highest of those: a percentage if any rate is one, else rupees), its terms and
 * exclusions in en/hi/te (empty texts when none), the days it takes to confirm, its claim window
 * and its cap per purchase (null: none), for each store named (stores the caller has).
 * `reader` is a DataSource or a transaction's EntityManager.
 */
export async function storeCashback(
  reader: Reader,
  merchantIds: readonly number[],
  defaults: CashbackDefaults,
): Promise<Map<number, StoreCashback>> {
  const states = await storeCashbackStates(reader, merchantIds);
  const answers = new Map<number, StoreCashback>();
  for (const [storeId, state] of states) answers.set(storeId, storeCashbackAnswer(state, defaults));
  return answers;
}

export function storeCashbackAnswer(state: StoreCashbackState, defaults: CashbackDefaults): StoreCashback {
  const base = fromStoredRate(state.base ?? defaultRate(defaults));
  const categories = state.categories.map((category) => ({
    name: category.name,
    rate: fromStoredRate(category.rate),
  }));
  return {
    storeId: state.storeId,
    upTo: upToRate([base, ...categories.map((category) => category.rate)]) as CashbackRate,
    base,
    baseIsDefault: state.base === null,
    categories,
    terms: state.terms,
    exclusions: state.exclusions,
    confirmDays: state.confirmDays,
    claimWindowDays: state.claimWindowDays,
    capRupees: state.capPaise === null ? null : paiseToRupees(state.capPaise),
  };
}

/** A click as the rate needs it (a purchase reported without a click passes its purchase time). */
export interface RatedClick {
  merchantId: number;
  couponId: number;
  clickedAt: Date;
}

/** The rate a purchase earns and where it came from, with the store's cap at that moment. */
export interface RateAtClick {
  rate: StoredRate;
  source: RateSource;
  /** The store's cap per purchase now (null: none): cashback above it waits for an admin. */
  capPaise: number | null;
}

/**
 * The latest change of each scope at the time ($2) — the store's base, the coupon's ($3) own rate,
 * the named category's ($4) — with its rate (null: removed then).
 */
const RATES_AT = `
  SELECT DISTINCT ON (scope) scope, rate_kind AS kind, rate_value AS value
  FROM cashback_changes
  WHERE merchant_id = $1 AND changed_at <= $2
    AND (scope = 'store' OR (scope = 'coupon' AND coupon_id = $3) OR (scope = 'category' AND category_key = $4))
  ORDER BY scope, changed_at DESC, id DESC`;

/**
 * The rate live at the click's time: the rate of the category the postback names (matched
 * whatever its case and spacing), else the coupon's own rate, else the store's base rate, else the
 * site's default. The history says which rate was in force when, so a rate changed after the click
 * does not change what the click earns. A flat rate is that amount in paise per purchase.
 */
export async function rateAtClick(
  manager: Reader,
  click: RatedClick,
  categoryName: string | null | undefined,
  defaults: CashbackDefaults,
): Promise<RateAtClick> {
  const key = categoryName ? categoryKey(categoryName) : null;
  const rows: Array<RateColumns & { scope: string }> = await manager.query(RATES_AT, [
    click.merchantId,
    click.clickedAt,
    click.couponId,
    key,
  ]);
  const [cap] = await manager.query(
    'SELECT cap_paise AS "capPaise" FROM store_cashback WHERE merchant_id = $1',
    [click.merchantId],
  );
  const capPaise = cap?.capPaise == null ? null : Number(cap.capPaise);
  for (const source of ['category', 'coupon', 'store'] as const) {
    const row = rows.find((each) => each.scope === source);
    const rate = row ? storedRateOf(row) : null;
    if (rate) return { rate, source, capPaise };
  }
  return { rate: defaultRate(defaults), source: 'default', capPaise };
}

/** Cashback in paise of a purchase at a rate: a share rounded half up to the paisa, or the flat amount. */
export const cashbackOf = (amountPaise: number, rate: StoredRate) =>
  rate.kind === 'flat' ? rate.value : Math.round((amountPaise * rate.value) / 10_000);

/** The coupon's store and own rate, or undefined when there is no such coupon. */
export async function couponCashback(
  reader: Reader,
  couponId: number,
): Promise<{ couponId: number; storeId: number; rate: StoredRate | null } | undefined> {
  const storeId = await couponStoreId(reader, couponId);
  if (storeId === undefined) return undefined;
  const [row] = await reader.query(
    'SELECT rate_kind AS kind, rate_value AS value FROM coupon_cashback WHERE coupon_id = $1',
    [couponId],
  );
  return { couponId, storeId, rate: row ? storedRateOf(row) : null };
}
