import { DomainEvent } from '../../infrastructure/events/domain-event.js';

abstract class FollowEvent<P extends object> extends DomainEvent<P> {
  /** The follower's account: one account's follows are one history. */
  readonly aggregateType = 'StoreFollower';
}

export class StoreFollowed extends FollowEvent<{ userId: number; merchantId: number }> {
  static readonly type = 'StoreFollowed';
  readonly type = StoreFollowed.type;
}

export class StoreUnfollowed extends FollowEvent<{
  userId: number;
  merchantId: number;
  /** `account` from the site, `mail` from an alert's unsubscribe link. */
  via: 'account' | 'mail';
}> {
  static readonly type = 'StoreUnfollowed';
  readonly type = StoreUnfollowed.type;
}
