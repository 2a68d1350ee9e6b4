import { DomainEvent } from '../../infrastructure/events/domain-event.js';

/** Ids only: the events outlive the erasure, and must name nobody once it is done. */
export interface DeletionEventPayload {
  personKind: 'shopper' | 'merchant';
  personId: number;
}

/** A person asked to delete their account; the mailer sends the confirmation link. */
export class AccountDeletionRequested extends DomainEvent<DeletionEventPayload & { confirmBefore: string }> {
  static readonly type = 'AccountDeletionRequested';
  readonly type = AccountDeletionRequested.type;
  readonly aggregateType = 'DeletionRequest';
}

/** The link was followed: the account's sessions ended, erasure waits until `eraseAfter`. */
export class AccountDeletionConfirmed extends DomainEvent<DeletionEventPayload & { eraseAfter: string }> {
  static readonly type = 'AccountDeletionConfirmed';
  readonly type = AccountDeletionConfirmed.type;
  readonly aggregateType = 'DeletionRequest';
}

/**
 * The person cancelled (signed in, or through the mailed link), or a request never confirmed
 * lapsed when its link had expired and the person asked again.
 */
export class AccountDeletionCancelled extends DomainEvent<
  DeletionEventPayload & { via: 'sign-in' | 'link' | 'expired' }
> {
  static readonly type = 'AccountDeletionCancelled';
  readonly type = AccountDeletionCancelled.type;
  readonly aggregateType = 'DeletionRequest';
}

/** Every owner forgot the person; the counts are in the data-request log. */
export class AccountErased extends DomainEvent<DeletionEventPayload> {
  static readonly type = 'AccountErased';
  readonly type = AccountErased.type;
  readonly aggregateType = 'DeletionRequest';
}

/**
 * The records an erasure kept (earnings, payouts, claims, the pseudonymous account) reached the end
 * of their retention period and went; the counts are in the data-request log.
 */
export class KeptRecordsRemoved extends DomainEvent<DeletionEventPayload & { complete: boolean }> {
  static readonly type = 'KeptRecordsRemoved';
  readonly type = KeptRecordsRemoved.type;
  readonly aggregateType = 'DeletionRequest';
}
