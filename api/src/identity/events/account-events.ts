import { DomainEvent } from '../../events/domain-event.js';

export class UserRegistered extends DomainEvent<{
  userName: string;
  email: string;
  referralCode: string;
  referredBy: string;
}> {
  static readonly type = 'UserRegistered';
  readonly type = UserRegistered.type;
  readonly aggregateType = 'User';
}

export class MerchantRegistered extends DomainEvent<{
  merchantName: string;
  email: string;
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

export class MerchantEmailConfirmed extends DomainEvent<{ email: string }> {
  static readonly type = 'MerchantEmailConfirmed';
  readonly type = MerchantEmailConfirmed.type;
  readonly aggregateType = 'Merchant';
}
