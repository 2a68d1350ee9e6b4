import type { CashbackRate } from '../../rules/cashback.js';

/**
 * The search box's answer (`GET /api/search/suggest`), as JSON carries it. Types only and without
 * dependencies, so the site imports it (type-only) instead of copying it.
 */
export interface Suggestions {
  stores: Array<{
    merchantId: number;
    name: string;
    slug: string;
    logoUrl: string | null;
    /** The store's best cashback rate ("up to"); null when it pays nothing. */
    cashback: CashbackRate | null;
  }>;
  categories: Array<{ id: number; name: string; slug: string }>;
  coupons: Array<{
    id: number;
    title: string;
    /** The title in Hindi and Telugu where it has one: the box shows the visitor's language. */
    titles: Partial<Record<'hi' | 'te', string>>;
    merchant: { id: number; name: string; slug: string };
  }>;
}
