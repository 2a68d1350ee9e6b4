import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Environment } from '../../infrastructure/config/environment.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { dropWaitingCampaignMails } from '../../mail/outgoing-mails.js';
import { noteAddressSubscription } from '../../privacy/newsletter-consent.js';
import { DEFAULT_LANGUAGE, type Language, NEWSLETTER } from '../../rules/engagement.js';
import { countCampaignMail } from '../campaign-mail-counts.js';
import {
  NewsletterConfirmationRequested,
  NewsletterSubscriptionConfirmed,
  NewsletterUnsubscribed,
} from '../events/engagement-events.js';
import {
  isTokenGenuine,
  newsletterConfirmToken,
  newsletterUnsubscribeToken,
  tokenSubscriberId,
} from '../newsletter-tokens.js';

export class SubscribeToNewsletter extends Command<void> {
  constructor(
    readonly email: string,
    readonly language: Language,
  ) {
    super();
  }
}

/**
 * Double opt-in. One row per address (case ignored); a confirmation mail is requested for a new
 * or unconfirmed address at most once per hour, however often (or concurrently) it subscribes.
 * A confirmed address stays confirmed and gets nothing. The answer never tells which case it was.
 */
@CommandHandler(SubscribeToNewsletter)
export class SubscribeToNewsletterHandler implements ICommandHandler<SubscribeToNewsletter> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ email, language }: SubscribeToNewsletter) {
    return this.unitOfWork.run((tx) => subscribeAddress(tx, email, language));
  }
}

/**
 * Subscribes an address (double opt-in, as {@link SubscribeToNewsletterHandler} describes) inside
 * the caller's transaction: the public form's command, and an account giving its newsletter consent.
 */
export async function subscribeAddress({ manager, record }: Transaction, email: string, language: Language) {
  const [subscriber] = await manager.query(
    `INSERT INTO newsletter_subscribers AS s (email, language, confirmation_sent_at) VALUES ($1, $2, now())
     ON CONFLICT ((lower(email))) DO UPDATE SET
       language = EXCLUDED.language,
       status = CASE WHEN s.status = 'confirmed' THEN 'confirmed' ELSE 'pending' END,
       confirmation_sent_at = CASE
         WHEN s.status <> 'confirmed'
          AND (s.confirmation_sent_at IS NULL OR s.confirmation_sent_at <= now() - make_interval(mins => $3))
         THEN now() ELSE s.confirmation_sent_at END
     RETURNING id, status = 'pending' AND confirmation_sent_at = now() AS "confirmationDue"`,
    [email, language, NEWSLETTER.confirmationIntervalMinutes],
  );
  if (subscriber.confirmationDue) {
    record(new NewsletterConfirmationRequested(String(subscriber.id), { subscriberId: subscriber.id }));
  }
}

/**
 * Ends the subscription of an address at once, if it has one (an account withdrawing its newsletter
 * consent), inside the caller's transaction: the campaign batches skip it from then on.
 */
export async function unsubscribeAddress({ manager, record }: Transaction, email: string) {
  // An UPDATE answers its rows and its count.
  const [subscribers]: [Array<{ id: number }>, number] = await manager.query(
    `UPDATE newsletter_subscribers SET status = 'unsubscribed', unsubscribed_at = now()
     WHERE lower(email) = lower($1) AND status <> 'unsubscribed' RETURNING id`,
    [email],
  );
  for (const { id } of subscribers) record(new NewsletterUnsubscribed(String(id), { subscriberId: id }));
  if (subscribers.length > 0) await dropWaitingCampaigns(manager, email);
}

/**
 * An unsubscribed address gets no more campaign mail, not even the ones already queued for it:
 * they are dropped and counted as skipped, so the campaign still ends when every mail is settled.
 */
async function dropWaitingCampaigns(manager: Transaction['manager'], email: string) {
  for (const [campaignId, count] of await dropWaitingCampaignMails(manager, email))
    await countCampaignMail(manager, campaignId, 'skipped_count', count);
}

export type NewsletterLinkOutcome = 'confirmed' | 'unsubscribed' | 'invalid';

export class FollowNewsletterLink extends Command<{ outcome: NewsletterLinkOutcome; language: Language }> {
  constructor(
    readonly action: 'confirm' | 'unsubscribe',
    readonly token: unknown,
  ) {
    super();
  }
}

/**
 * Confirms or ends a subscription from a mailed link. Following a link again is not an error; a
 * confirmation link older than the latest confirmation mail, or from before an unsubscription,
 * is refused.
 */
@CommandHandler(FollowNewsletterLink)
export class FollowNewsletterLinkHandler implements ICommandHandler<FollowNewsletterLink> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly environment: Environment,
  ) {}

  execute({ action, token }: FollowNewsletterLink) {
    const invalid = { outcome: 'invalid' as const, language: DEFAULT_LANGUAGE };
    const subscriberId = tokenSubscriberId(token);
    if (subscriberId === undefined) return Promise.resolve(invalid);
    const secret = this.environment.SESSION_SECRET;
    return this.unitOfWork.run(async (tx) => {
      const { manager, record } = tx;
      const [subscriber] = await manager.query(
        `SELECT id, email, language, status, confirmation_sent_at AS "sentAt" FROM newsletter_subscribers
         WHERE id = $1 FOR UPDATE`,
        [subscriberId],
      );
      if (!subscriber) return invalid;
      const { language } = subscriber;
      if (action === 'unsubscribe') {
        const expected = newsletterUnsubscribeToken(secret, subscriber.id, subscriber.email);
        if (!isTokenGenuine(expected, String(token))) return invalid;
        if (subscriber.status !== 'unsubscribed') {
          await manager.query(
            "UPDATE newsletter_subscribers SET status = 'unsubscribed', unsubscribed_at = now() WHERE id = $1",
            [subscriber.id],
          );
          record(new NewsletterUnsubscribed(String(subscriber.id), { subscriberId: subscriber.id }));
          await dropWaitingCampaigns(manager, subscriber.email);
          await noteAddressSubscription(tx, subscriber.email, false);
        }
        return { outcome: 'unsubscribed' as const, language };
      }
      const genuine =
        subscriber.sentAt &&
        isTokenGenuine(
          newsletterConfirmToken(secret, subscriber.id, subscriber.email, subscriber.sentAt),
          String(token),
        );
      if (!genuine || subscriber.status === 'unsubscribed') return invalid;
      if (subscriber.status === 'pending') {
        await manager.query(
          "UPDATE newsletter_subscribers SET status = 'confirmed', confirmed_at = now() WHERE id = $1",
          [subscriber.id],
        );
        record(new NewsletterSubscriptionConfirmed(String(subscriber.id), { subscriberId: subscriber.id }));
        await noteAddressSubscription(tx, subscriber.email, true);
      }
      return { outcome: 'confirmed' as const, language };
    });
  }
}
