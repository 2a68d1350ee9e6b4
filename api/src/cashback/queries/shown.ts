/**
 * Cashback as shoppers see it before the click, for other features' public reads: a compact "up
 * to" of many stores and coupons in one statement (a page of cards, the A-Z, suggestions), and a
 * store's whole cashback for its page. Rates that give nothing are never shown.
 */
import {
  type CashbackRate,
  earnsSomething,
  fromStoredRate,
  type StoreCashbackShown,
  shownUpTo,
} from '../../rules/cashback.js';
import { rupeesToPaise } from '../../rules/money.js';
import { type CashbackDefaults, type Reader, storeCashback } from './rates.js';

/**
 * Each store's base rate (its own, or none: the default applies) and the best of its category
 * rates of each kind, and each named coupon's own rate: one statement, whatever the page holds.
 */
const UP_TO = `
  SELECT
    (SELECT coalesce(json_agg(json_build_object(
              'storeId', m.id, 'kind', s.rate_kind, 'value', s.rate_value,
              'categoryPercent', (SELECT max(c.rate_value) FROM store_category_cashback c
                                  WHERE c.merchant_id = m.id AND c.rate_kind = 'percent'),
              'categoryFlat', (SELECT max(c.rate_value) FROM store_category_cashback c
                               WHERE c.merchant_id = m.id AND c.rate_kind = 'flat'))), '[]')
     FROM unnest($1::int[]) AS m(id) LEFT JOIN store_cashback s ON s.merchant_id = m.id) AS stores,
    (SELECT coalesce(json_agg(json_build_object('couponId', k.coupon_id, 'kind', k.rate_kind, 'value', k.rate_value)), '[]')
     FROM coupon_cashback k WHERE k.coupon_id = ANY($2::int[])) AS coupons`;

type Kind = 'percent' | 'flat';
interface StoreRow {
  storeId: number;
  kind: Kind | null;
  value: number | string | null;
  categoryPercent: number | string | null;
  categoryFlat: number | string | null;
}
interface CouponRow {
  couponId: number;
  kind: Kind;
  value: number | string;
}

const rateOf = (kind: Kind, value: number | string): CashbackRate =>
  fromStoredRate({ kind, value: Number(value) });

/** What shoppers are shown of many stores and coupons at once. */
export interface CashbackUpTo {
  /** A store's "up to" (the best of its base and category rates); absent: it gives nothing. */
  store(storeId: number): CashbackRate | null;
  /**
   * A coupon's "up to": its own rate in place of its store's base (as a purchase earns it),
   * with the store's category rates, which a purchase in that category earns instead.
   */
  coupon(couponId: number, storeId: number): CashbackRate | null;
}

/**
 * "Up to" of the stores and coupons of a page, read in one statement. The stores named are the
 * caller's (listed, with a page); a store without settings of its own earns the default rate.
 */
export async function cashbackUpTo(
  reader: Reader,
  storeIds: readonly number[],
  couponIds: readonly number[],
  defaults: CashbackDefaults,
): Promise<CashbackUpTo> {
  const byStore = new Map<number, { base: CashbackRate; categories: CashbackRate[] }>();
  const byCoupon = new Map<number, CashbackRate>();
  if (storeIds.length > 0 || couponIds.length > 0) {
    const [row]: Array<{ stores: StoreRow[]; coupons: CouponRow[] }> = await reader.query(UP_TO, [
      [...new Set(storeIds)],
      [...new Set(couponIds)],
    ]);
    for (const store of row!.stores) {
      const categories = [
        ...(store.categoryPercent === null ? [] : [rateOf('percent', store.categoryPercent)]),
        ...(store.categoryFlat === null ? [] : [rateOf('flat', store.categoryFlat)]),
      ];
      const base =
        store.kind === null || store.value === null
          ? rateOf('percent', rupeesToPaise(defaults.CASHBACK_DEFAULT_RATE_PERCENT))
          : rateOf(store.kind, store.value);
      byStore.set(store.storeId, { base, categories });
    }
    for (const coupon of row!.coupons) byCoupon.set(coupon.couponId, rateOf(coupon.kind, coupon.value));
  }
  return {
    store: (storeId) => {
      const rates = byStore.get(storeId);
      return rates ? shownUpTo([rates.base, ...rates.categories]) : null;
    },
    coupon: (couponId, storeId) => {
      const rates = byStore.get(storeId);
      const own = byCoupon.get(couponId);
      return shownUpTo(
        [own ?? rates?.base, ...(rates?.categories ?? [])].filter((rate) => rate !== undefined),
      );
    },
  };
}

/** A store's cashback for its public page; null when none of its rates gives anything. */
export async function storeCashbackShown(
  reader: Reader,
  storeId: number,
  defaults: CashbackDefaults,
): Promise<StoreCashbackShown | null> {
  const cashback = (await storeCashback(reader, [storeId], defaults)).get(storeId);
  if (!cashback) return null;
  const categories = cashback.categories.filter((category) => earnsSomething(category.rate));
  const upTo = shownUpTo([cashback.base, ...categories.map((category) => category.rate)]);
  if (!upTo) return null;
  return {
    upTo,
    base: earnsSomething(cashback.base) ? cashback.base : null,
    // Best first: the table answers "where do I earn most".
    categories: categories.sort((a, b) => weight(b.rate) - weight(a.rate) || a.name.localeCompare(b.name)),
    terms: cashback.terms,
    exclusions: cashback.exclusions,
    confirmDays: cashback.confirmDays,
  };
}

/** Percentages above flat amounts (as "up to" orders them), then by value. */
const weight = (rate: CashbackRate) =>
  'percent' in rate ? 1e12 + rupeesToPaise(rate.percent) : rupeesToPaise(rate.rupees);
