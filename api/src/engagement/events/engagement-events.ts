import { DomainEvent } from '../../infrastructure/events/domain-event.js';

// Payloads name records, never addresses or tokens: the mailer reads the row and signs the links.

abstract class SubscriberEvent<P extends object> extends DomainEvent<P> {
  readonly aggregateType = 'NewsletterSubscriber';
}

/** A confirmation mail is due (a new subscription, or a repeated one after the quiet hour). */
export class NewsletterConfirmationRequested extends SubscriberEvent<{ subscriberId: number }> {
  static readonly type = 'NewsletterConfirmationRequested';
  readonly type = NewsletterConfirmationRequested.type;
}

export class NewsletterSubscriptionConfirmed extends SubscriberEvent<{ subscriberId: number }> {
  static readonly type = 'NewsletterSubscriptionConfirmed';
  readonly type = NewsletterSubscriptionConfirmed.type;
}

export class NewsletterUnsubscribed extends SubscriberEvent<{ subscriberId: number }> {
  static readonly type = 'NewsletterUnsubscribed';
  readonly type = NewsletterUnsubscribed.type;
}

abstract class ContactEvent<P extends object> extends DomainEvent<P> {
  readonly aggregateType = 'ContactMessage';
}

export class ContactMessageReceived extends ContactEvent<{ contactMessageId: number }> {
  static readonly type = 'ContactMessageReceived';
  readonly type = ContactMessageReceived.type;
}

export class ContactMessageHandled extends ContactEvent<{ handled: boolean }> {
  static readonly type = 'ContactMessageHandled';
  readonly type = ContactMessageHandled.type;
}

abstract class CampaignEvent<P extends object> extends DomainEvent<P> {
  readonly aggregateType = 'Campaign';
}

export class CampaignSaved extends CampaignEvent<{ subject: string }> {
  static readonly type = 'CampaignSaved';
  readonly type = CampaignSaved.type;
}

export class CampaignDeleted extends CampaignEvent<Record<string, never>> {
  static readonly type = 'CampaignDeleted';
  readonly type = CampaignDeleted.type;
}

/** Sending started (or resumed): the recipients are fixed in `campaign_recipients`. */
export class CampaignSendStarted extends CampaignEvent<{ campaignId: number; recipients: number }> {
  static readonly type = 'CampaignSendStarted';
  readonly type = CampaignSendStarted.type;
}
