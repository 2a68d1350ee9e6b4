import { DomainEvent } from '../../infrastructure/events/domain-event.js';
import type { CashbackChangeOrigin, CashbackChangeScope, StoredRate } from '../../rules/cashback.js';

/**
 * Notified (at commit) by every change of a store's or a coupon's cashback: what shoppers are
 * shown (cards, store pages, the A-Z, suggestions) reads the rates at request time, and the
 * answers kept ready of it are dropped.
 */
export const CASHBACK_CHANNEL = 'cashback_changed';

/**
 * A store's cashback changed: one event per entry of its history (`changeId`), a rate of the store,
 * of one of its categories or coupons, or its terms and settings. `rate` is the rate in force from
 * now for that scope, null when removed (the next one down applies).
 */
export class CashbackChanged extends DomainEvent<{
  changeId: number;
  scope: CashbackChangeScope;
  categoryName?: string;
  couponId?: number;
  rate?: StoredRate | null;
  /** The names of the fields that changed (terms and settings). */
  fields?: string[];
  origin: CashbackChangeOrigin;
  adminId: number | null;
  proposalId?: number;
}> {
  static readonly type = 'CashbackChanged';
  readonly type = CashbackChanged.type;
  readonly aggregateType = 'Store';
}

/** A feed source's payouts propose a rate for a store (or change the rate it proposed). */
export class CashbackProposed extends DomainEvent<{
  storeId: number;
  sourceId: number;
  rate: StoredRate;
}> {
  static readonly type = 'CashbackProposed';
  readonly type = CashbackProposed.type;
  readonly aggregateType = 'CashbackProposal';
}

/** An admin accepted (the rate applied through the store's change) or dismissed a proposal. */
export class CashbackProposalDecided extends DomainEvent<{
  storeId: number;
  decision: 'accepted' | 'dismissed';
  adminId: number;
}> {
  static readonly type = 'CashbackProposalDecided';
  readonly type = CashbackProposalDecided.type;
  readonly aggregateType = 'CashbackProposal';
}
