import { ConflictException, NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { shopperRecipients } from '../../identity/queries/mail-recipients.js';
import { lockShopper } from '../../identity/queries/shopper-locks.js';
import { Environment } from '../../infrastructure/config/environment.js';
import { UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { DEFAULT_LANGUAGE, type Language } from '../../rules/engagement.js';
import { STORE_FOLLOWS } from '../../rules/follows.js';
import { storeNames } from '../../storefront/queries/store-identity.js';
import { readStoreAlertLink } from '../alert-links.js';
import { StoreFollowed, StoreUnfollowed } from '../events/follow-events.js';
import { COUNT_FOLLOWS, deleteFollow, FOLLOW, INSERT_FOLLOW, isFollowable } from '../queries/follows.js';

/** Returns whether the follow is new (an existing one is left as it is). */
export class FollowStore extends Command<{ created: boolean }> {
  constructor(
    readonly userId: number,
    readonly merchantId: number,
  ) {
    super();
  }
}

/** A store shoppers can see, followed at most STORE_FOLLOWS.maxPerAccount stores per account. */
@CommandHandler(FollowStore)
export class FollowStoreHandler implements ICommandHandler<FollowStore> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ userId, merchantId }: FollowStore) {
    return this.unitOfWork.run(async ({ manager, record }) => {
      if (!(await isFollowable(manager, merchantId)))
        throw new NotFoundException({ statusCode: 404, message: STORE_FOLLOWS.notFound });
      // Serialises one account's follows, so the limit holds however many requests arrive at once.
      await lockShopper(manager, userId, 'FOR UPDATE');
      const [{ follows }] = await manager.query(COUNT_FOLLOWS, [userId]);
      const [already] = await manager.query(FOLLOW, [userId, merchantId]);
      if (already) return { created: false };
      if (follows >= STORE_FOLLOWS.maxPerAccount)
        throw new ConflictException({ statusCode: 409, message: STORE_FOLLOWS.tooMany });
      await manager.query(INSERT_FOLLOW, [userId, merchantId]);
      record(new StoreFollowed(String(userId), { userId, merchantId }));
      return { created: true };
    });
  }
}

export class UnfollowStore extends Command<void> {
  constructor(
    readonly userId: number,
    readonly merchantId: number,
  ) {
    super();
  }
}

/** Ends a follow, if there was one; its alerts not yet mailed are dropped. */
@CommandHandler(UnfollowStore)
export class UnfollowStoreHandler implements ICommandHandler<UnfollowStore> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  async execute({ userId, merchantId }: UnfollowStore): Promise<void> {
    await this.unitOfWork.run(async ({ manager, record }) => {
      if (await deleteFollow(manager, userId, merchantId))
        record(new StoreUnfollowed(String(userId), { userId, merchantId, via: 'account' }));
    });
  }
}

export type StoreAlertLinkOutcome =
  | { outcome: 'unfollowed'; language: Language; storeName: string }
  | { outcome: 'invalid'; language: Language };

export class FollowStoreAlertLink extends Command<StoreAlertLinkOutcome> {
  constructor(readonly token: unknown) {
    super();
  }
}

/**
 * The unsubscribe link of a store alert: the follower stops following that store. Following it
 * again (or after unfollowing on the site) is not an error.
 */
@CommandHandler(FollowStoreAlertLink)
export class FollowStoreAlertLinkHandler implements ICommandHandler<FollowStoreAlertLink> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute({ token }: FollowStoreAlertLink): Promise<StoreAlertLinkOutcome> {
    const invalid = { outcome: 'invalid' as const, language: DEFAULT_LANGUAGE };
    const link = readStoreAlertLink(token);
    if (!link) return Promise.resolve(invalid);
    return this.unitOfWork.run(async ({ manager, record }) => {
      const [followers, stores] = await Promise.all([
        shopperRecipients(manager, [link.userId]),
        storeNames(manager, [link.merchantId]),
      ]);
      const follower = followers.get(link.userId);
      const store = stores.get(link.merchantId);
      if (!follower || !store || !link.isGenuine(this.environment.SESSION_SECRET, follower.email))
        return invalid;
      if (await deleteFollow(manager, link.userId, link.merchantId)) {
        const { userId, merchantId } = link;
        record(new StoreUnfollowed(String(userId), { userId, merchantId, via: 'mail' }));
      }
      return {
        outcome: 'unfollowed' as const,
        language: follower.language as Language,
        storeName: store.name,
      };
    });
  }
}
