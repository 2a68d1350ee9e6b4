import { DomainEvent } from '../../infrastructure/events/domain-event.js';

// Payloads name accounts by id, never by their name, email, mobile or address: the log outlives an
// erased account, and a consumer that mails reads the address from identity when it handles the
// event. Payloads recorded before this carried some of those fields; a migration removed them.

export class UserRegistered extends DomainEvent<{
  referralCode: string;
  referredBy: string;
}> {
  static readonly type = 'UserRegistered';
  readonly type = UserRegistered.type;
  readonly aggregateType = 'User';
}

export class MerchantRegistered extends DomainEvent<{
  referralCode: string;
  referredByCode: string;
  referredByType: string;
  /** Until when the confirmation link in the welcome mail works. */
  confirmationExpiresAt: string;
}> {
  static readonly type = 'MerchantRegistered';
  readonly type = MerchantRegistered.type;
  readonly aggregateType = 'Merchant';
}

export class MerchantEmailConfirmed extends DomainEvent<Record<string, never>> {
  static readonly type = 'MerchantEmailConfirmed';
  readonly type = MerchantEmailConfirmed.type;
  readonly aggregateType = 'Merchant';
}

/** A shopper changed their profile; `changed` names the fields, whose values identity keeps. */
export class UserProfileUpdated extends DomainEvent<{ changed: string[] }> {
  static readonly type = 'UserProfileUpdated';
  readonly type = UserProfileUpdated.type;
  readonly aggregateType = 'User';
}

/** A merchant changed its profile; `changed` names the fields, whose values identity keeps. */
export class MerchantProfileUpdated extends DomainEvent<{ changed: string[] }> {
  static readonly type = 'MerchantProfileUpdated';
  readonly type = MerchantProfileUpdated.type;
  readonly aggregateType = 'Merchant';
}

/** The password of a user or merchant changed (by its owner, or through a reset link). */
export class PasswordChanged extends DomainEvent<{ role: 'user' | 'merchant'; via: 'change' | 'reset' }> {
  static readonly type = 'PasswordChanged';
  readonly type = PasswordChanged.type;
  constructor(
    readonly aggregateType: 'User' | 'Merchant',
    aggregateId: string,
    payload: { role: 'user' | 'merchant'; via: 'change' | 'reset' },
  ) {
    super(aggregateId, payload);
  }
}

/**
 * Someone asked for a reset link for this account. The link is not in the event: the mailer signs
 * it from the account's current password hash and `expiresAt`.
 */
export class PasswordResetRequested extends DomainEvent<{ role: 'user' | 'merchant'; expiresAt: string }> {
  static readonly type = 'PasswordResetRequested';
  readonly type = PasswordResetRequested.type;
  constructor(
    readonly aggregateType: 'User' | 'Merchant',
    aggregateId: string,
    payload: { role: 'user' | 'merchant'; expiresAt: string },
  ) {
    super(aggregateId, payload);
  }
}

/** An admin hid or showed a merchant's store page and coupons. */
export class StoreVisibilityChanged extends DomainEvent<{ hidden: boolean }> {
  static readonly type = 'StoreVisibilityChanged';
  readonly type = StoreVisibilityChanged.type;
  readonly aggregateType = 'Merchant';
}

/** Events after which a merchant's coupons and store page may appear on the public site or leave it. */
export const MERCHANT_VISIBILITY_EVENTS = [MerchantEmailConfirmed.type, StoreVisibilityChanged.type] as const;

/** An admin created a store without an account (a network advertiser's); nobody signs in to it. */
export class StoreWithoutAccountCreated extends DomainEvent<{ name: string; siteUrl: string; slug: string }> {
  static readonly type = 'StoreWithoutAccountCreated';
  readonly type = StoreWithoutAccountCreated.type;
  readonly aggregateType = 'Merchant';
}

/** A registered merchant's account moved onto a store without an account: it now signs in to it. */
export class StoreClaimed extends DomainEvent<{ fromMerchantId: number }> {
  static readonly type = 'StoreClaimed';
  readonly type = StoreClaimed.type;
  readonly aggregateType = 'Merchant';
}
