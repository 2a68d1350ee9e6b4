import { BadRequestException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import {
  CASHBACK_LANGUAGES,
  CASHBACK_MESSAGES,
  type CashbackRate,
  type CashbackTexts,
  categoryKey,
  fromStoredRate,
  type StoredRate,
  toStoredRate,
} from '../../rules/cashback.js';
import { paiseToRupees, rupeesToPaise } from '../../rules/money.js';
import { CashbackChanged } from '../events/cashback-events.js';
import {
  type CashbackAuthor,
  type HistoryEntry,
  insertHistoryEntry,
  setCategoryRate,
  setCouponRate,
  setStoreBaseRate,
  setStoreSettings,
} from '../queries/changes.js';
import { couponCashback, lockStoreCashback, storeCashbackStates } from '../queries/rates.js';

/** What an admin changes of a store's cashback; a field left out stays as it is. */
export interface StoreCashbackChanges {
  /** null: the site's default rate. */
  base?: CashbackRate | null;
  /** Every category rate of the store: those left out are removed. */
  categories?: Array<{ name: string; rate: CashbackRate }>;
  terms?: CashbackTexts;
  exclusions?: CashbackTexts;
  confirmDays?: number;
  claimWindowDays?: number;
  /** null: no cap. */
  capRupees?: string | null;
}

const sameRate = (a: StoredRate | null, b: StoredRate | null) =>
  a === null || b === null ? a === b : a.kind === b.kind && a.value === b.value;

const shown = (rate: StoredRate | null) => (rate === null ? null : fromStoredRate(rate));

const sameTexts = (a: CashbackTexts, b: CashbackTexts) =>
  CASHBACK_LANGUAGES.every((language) => a[language] === b[language]);

/**
 * Applies the changes to the store's cashback in the caller's transaction: one history entry and
 * one event for each rate that changed (the base, each category) and one for the terms and
 * settings together. Answers how many entries it wrote (0: nothing changed).
 */
export async function changeStoreCashback(
  { manager, record }: Transaction,
  storeId: number,
  changes: StoreCashbackChanges,
  author: CashbackAuthor,
): Promise<number> {
  if (!(await lockStoreCashback(manager, storeId))) {
    throw new NotFoundException({ statusCode: 404, message: CASHBACK_MESSAGES.storeNotFound });
  }
  const state = (await storeCashbackStates(manager, [storeId])).get(storeId)!;
  const entries: Array<{ entry: HistoryEntry; apply: () => Promise<void> }> = [];

  if (changes.base !== undefined) {
    const rate = changes.base === null ? null : toStoredRate(changes.base);
    if (!sameRate(rate, state.base)) {
      entries.push({
        entry: {
          storeId,
          scope: 'store',
          rate,
          changes: { rate: { from: shown(state.base), to: shown(rate) } },
        },
        apply: () => setStoreBaseRate(manager, storeId, rate),
      });
    }
  }

  if (changes.categories !== undefined) {
    const wanted = new Map<string, { name: string; rate: StoredRate }>();
    for (const category of changes.categories) {
      const name = category.name.trim().replace(/\s+/g, ' ');
      const key = categoryKey(name);
      if (wanted.has(key)) {
        const message = CASHBACK_MESSAGES.categoryTwice(name);
        throw new BadRequestException({ statusCode: 400, message, errors: { categories: [message] } });
      }
      wanted.set(key, { name, rate: toStoredRate(category.rate) });
    }
    const current = new Map(state.categories.map((category) => [category.key, category]));
    for (const [key, old] of current) {
      if (wanted.has(key)) continue;
      entries.push({
        entry: {
          storeId,
          scope: 'category',
          categoryKey: key,
          categoryName: old.name,
          rate: null,
          changes: { rate: { from: shown(old.rate), to: null } },
        },
        apply: () => setCategoryRate(manager, storeId, key, old.name, null),
      });
    }
    for (const [key, next] of wanted) {
      const old = current.get(key);
      if (old && sameRate(old.rate, next.rate)) {
        // The same category spelt another way: its name follows, its rate did not change.
        if (old.name !== next.name) await setCategoryRate(manager, storeId, key, next.name, next.rate);
        continue;
      }
      entries.push({
        entry: {
          storeId,
          scope: 'category',
          categoryKey: key,
          categoryName: next.name,
          rate: next.rate,
          changes: { rate: { from: shown(old?.rate ?? null), to: shown(next.rate) } },
        },
        apply: () => setCategoryRate(manager, storeId, key, next.name, next.rate),
      });
    }
  }

  const settings = {
    terms: changes.terms ?? state.terms,
    exclusions: changes.exclusions ?? state.exclusions,
    confirmDays: changes.confirmDays ?? state.confirmDays,
    claimWindowDays: changes.claimWindowDays ?? state.claimWindowDays,
    capPaise:
      changes.capRupees === undefined
        ? state.capPaise
        : changes.capRupees === null
          ? null
          : rupeesToPaise(changes.capRupees),
  };
  const settingChanges: Record<string, { from: unknown; to: unknown }> = {};
  if (!sameTexts(settings.terms, state.terms))
    settingChanges.terms = { from: state.terms, to: settings.terms };
  if (!sameTexts(settings.exclusions, state.exclusions)) {
    settingChanges.exclusions = { from: state.exclusions, to: settings.exclusions };
  }
  for (const field of ['confirmDays', 'claimWindowDays'] as const) {
    if (settings[field] !== state[field]) settingChanges[field] = { from: state[field], to: settings[field] };
  }
  if (settings.capPaise !== state.capPaise) {
    const rupees = (paise: number | null) => (paise === null ? null : paiseToRupees(paise));
    settingChanges.capRupees = { from: rupees(state.capPaise), to: rupees(settings.capPaise) };
  }
  if (Object.keys(settingChanges).length > 0) {
    entries.push({
      entry: { storeId, scope: 'terms', changes: settingChanges },
      apply: () => setStoreSettings(manager, storeId, settings),
    });
  }

  for (const { entry, apply } of entries) {
    await apply();
    const changeId = await insertHistoryEntry(manager, entry, author);
    record(
      new CashbackChanged(String(storeId), {
        changeId,
        scope: entry.scope,
        ...(entry.categoryName !== undefined && { categoryName: entry.categoryName }),
        ...(entry.rate !== undefined && { rate: entry.rate }),
        ...(entry.scope === 'terms' && { fields: Object.keys(entry.changes) }),
        origin: author.origin,
        adminId: author.adminId,
        ...(author.proposalId !== undefined && { proposalId: author.proposalId }),
      }),
    );
  }
  return entries.length;
}

export class SetStoreCashback extends Command<{ changed: number }> {
  constructor(
    readonly storeId: number,
    readonly changes: StoreCashbackChanges,
    readonly adminId: number,
    readonly note: string | null = null,
  ) {
    super();
  }
}

/**
 * An admin sets a store's cashback. Purchases already recorded keep the cashback they were
 * given; clicks made before a rate changed keep earning the rate of their time.
 */
@CommandHandler(SetStoreCashback)
export class SetStoreCashbackHandler implements ICommandHandler<SetStoreCashback> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ storeId, changes, adminId, note }: SetStoreCashback) {
    return this.unitOfWork.run(async (tx) => ({
      changed: await changeStoreCashback(tx, storeId, changes, { origin: 'admin', adminId, note }),
    }));
  }
}

export class SetCouponCashback extends Command<{ changed: boolean }> {
  constructor(
    readonly couponId: number,
    /** null: the coupon has no rate of its own (its store's apply). */
    readonly rate: CashbackRate | null,
    readonly adminId: number,
    readonly note: string | null = null,
  ) {
    super();
  }
}

/** An admin sets a coupon's own rate, which overrides its store's base rate (not its categories'). */
@CommandHandler(SetCouponCashback)
export class SetCouponCashbackHandler implements ICommandHandler<SetCouponCashback> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ couponId, rate, adminId, note }: SetCouponCashback) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      const coupon = await couponCashback(manager, couponId);
      if (!coupon)
        throw new NotFoundException({ statusCode: 404, message: CASHBACK_MESSAGES.couponNotFound });
      await lockStoreCashback(manager, coupon.storeId);
      // Read again under the store's lock: a concurrent change of this coupon committed before it.
      const { rate: old } = (await couponCashback(manager, couponId))!;
      const next = rate === null ? null : toStoredRate(rate);
      if (sameRate(old, next)) return { changed: false };
      await setCouponRate(manager, couponId, coupon.storeId, next);
      const changeId = await insertHistoryEntry(
        manager,
        {
          storeId: coupon.storeId,
          scope: 'coupon',
          couponId,
          rate: next,
          changes: { rate: { from: shown(old), to: shown(next) } },
        },
        { origin: 'admin', adminId, note },
      );
      record(
        new CashbackChanged(String(coupon.storeId), {
          changeId,
          scope: 'coupon',
          couponId,
          rate: next,
          origin: 'admin',
          adminId,
        }),
      );
      return { changed: true };
    });
  }
}
