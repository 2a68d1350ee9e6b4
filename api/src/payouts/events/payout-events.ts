import { DomainEvent } from '../../infrastructure/events/domain-event.js';

/** What every payout event says: whose money and how much (paise). */
export interface PayoutFacts {
  userId: number;
  amountPaise: number;
}

abstract class PayoutEvent<P extends PayoutFacts> extends DomainEvent<P> {
  readonly aggregateType = 'Payout';
}

/** A shopper asked for part of the confirmed cashback to be paid out. */
export class PayoutRequested extends PayoutEvent<PayoutFacts & { method: 'upi' | 'bank' }> {
  static readonly type = 'PayoutRequested';
  readonly type = PayoutRequested.type;
}

/** An admin took the payout into a payment run. */
export class PayoutProcessingStarted extends PayoutEvent<PayoutFacts> {
  static readonly type = 'PayoutProcessingStarted';
  readonly type = PayoutProcessingStarted.type;
}

/** The money reached the shopper; the bank's reference says which transfer. */
export class PayoutPaid extends PayoutEvent<PayoutFacts & { bankReference: string }> {
  static readonly type = 'PayoutPaid';
  readonly type = PayoutPaid.type;
}

/** The transfer failed; the amount is back in the shopper's balance. */
export class PayoutFailed extends PayoutEvent<PayoutFacts & { reason: string }> {
  static readonly type = 'PayoutFailed';
  readonly type = PayoutFailed.type;
}
