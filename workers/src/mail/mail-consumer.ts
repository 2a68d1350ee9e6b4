import { Injectable } from '@nestjs/common';
import {
  AccountDeletionConfirmed,
  AccountDeletionRequested,
  ClaimApproved,
  ClaimRejected,
  ContactMessageReceived,
  CouponApproved,
  CouponRejected,
  GrievanceAnswered,
  GrievanceFiled,
  MerchantRegistered,
  NewsletterConfirmationRequested,
  PasswordChanged,
  PasswordResetRequested,
  PayoutFailed,
  PayoutPaid,
  ProductApproved,
  ProductRejected,
  type PublishedEvent,
  ReferralRewardEarned,
  UserRegistered,
} from '@offers/api/events';
import { Environment } from '@offers/api/platform';
import {
  adminRecipients,
  claimMailFacts,
  contactMessageById,
  deletionLinkToken,
  deletionRequestById,
  destinationOf,
  emailConfirmationToken,
  grievanceMailFacts,
  type MailRecipient,
  merchantRecipients,
  newsletterConfirmToken,
  newsletterUnsubscribeToken,
  type OutgoingMail,
  passwordMailRecipient,
  passwordResetToken,
  payoutById,
  pendingSubscriber,
  recordOutgoingMails,
  referralInvitation,
  shopperRecipients,
  userProfile,
} from '@offers/api/read-models';
import {
  ACCOUNT_DELETION,
  type CouponTextLanguage,
  type CouponTexts,
  EMAIL_CONFIRMATION,
  LANGUAGES,
  type Language,
  localePath,
  PASSWORD_RESET,
} from '@offers/api/rules';
import type { EntityManager } from 'typeorm';
import type { EventConsumer } from '../events/event-consumer.js';
import { type MailParameters, type MailTemplate, renderMail } from './templates.js';

interface Recipient {
  email: string;
  name: string;
  language: Language;
}

/**
 * Turns events into mails: renders each in its recipient's language and records it in
 * `outgoing_mails` in the event's inbox transaction. Sending happens later ({@link MailSender}),
 * so a slow or absent SMTP server never holds up or fails the event.
 */
@Injectable()
export class MailConsumer implements EventConsumer {
  readonly name = 'mail';
  readonly handles = [
    UserRegistered.type,
    MerchantRegistered.type,
    PasswordResetRequested.type,
    PasswordChanged.type,
    CouponApproved.type,
    CouponRejected.type,
    ProductApproved.type,
    ProductRejected.type,
    NewsletterConfirmationRequested.type,
    ContactMessageReceived.type,
    PayoutPaid.type,
    PayoutFailed.type,
    ReferralRewardEarned.type,
    ClaimApproved.type,
    ClaimRejected.type,
    GrievanceFiled.type,
    GrievanceAnswered.type,
    AccountDeletionRequested.type,
    AccountDeletionConfirmed.type,
  ];

  constructor(private readonly environment: Environment) {}

  async handle(event: PublishedEvent, manager: EntityManager): Promise<void> {
    const mails = await this.mailsFor(event, manager);
    await recordOutgoingMails(manager, mails);
  }

  private async mailsFor(event: PublishedEvent, manager: EntityManager): Promise<OutgoingMail[]> {
    // Links for shoppers, and to the API, start at PUBLIC_URL (the site forwards /api): the address
    // the site is served at. Links for merchants' and admins' screens start at BACKOFFICE_URL.
    const { BACKOFFICE_URL, PUBLIC_URL, SESSION_SECRET } = this.environment;
    const payload = event.payload as Record<string, unknown>;
    const id = event.aggregateId;
    switch (event.type) {
      case UserRegistered.type: {
        const user = await userProfile(manager, Number(id));
        if (!user) return [];
        const to = { email: user.emailAddress, name: user.userName, language: user.language as Language };
        return [
          this.mail(event, 'user-welcome', to, {
            name: to.name,
            siteUrl: PUBLIC_URL,
            referralLink: referralInvitation(PUBLIC_URL, user.referralCode).link,
          }),
        ];
      }
      case MerchantRegistered.type: {
        const merchant = await merchantRecipient(manager, Number(id));
        if (!merchant) return [];
        // The link is signed here, from the merchant's id and address: no token is in the event log.
        const expiresAt = new Date(String(payload.confirmationExpiresAt));
        const token = emailConfirmationToken(SESSION_SECRET, Number(id), merchant.email, expiresAt);
        return [
          this.mail(event, 'merchant-welcome', merchant, {
            name: merchant.name,
            confirmUrl: `${PUBLIC_URL}/api/auth/confirm-email?token=${encodeURIComponent(token)}`,
            validForHours: EMAIL_CONFIRMATION.validForHours,
          }),
        ];
      }
      case PasswordResetRequested.type: {
        const role = payload.role === 'merchant' ? 'merchant' : 'user';
        const account = asRecipient(await passwordMailRecipient(manager, role, Number(id)));
        if (!account) return [];
        // Signed here from the account's current password hash: the link is in no event, and it
        // stops working once the password changes (whether through this link or otherwise).
        const expiresAt = new Date(String(payload.expiresAt));
        const token = encodeURIComponent(
          passwordResetToken(SESSION_SECRET, role, Number(id), account.passwordHash, expiresAt),
        );
        const resetUrl =
          role === 'user'
            ? `${PUBLIC_URL}/reset-password?token=${token}`
            : `${BACKOFFICE_URL}/#/reset-password?token=${token}`;
        return [
          this.mail(event, 'password-reset', account, {
            name: account.name,
            resetUrl,
            validForMinutes: PASSWORD_RESET.validForMinutes,
          }),
        ];
      }
      case PasswordChanged.type: {
        // A notice to the account's owner, so a change they did not make does not go unnoticed.
        const role = payload.role === 'merchant' ? 'merchant' : 'user';
        const account = asRecipient(await passwordMailRecipient(manager, role, Number(id)));
        if (!account) return [];
        const forgotUrl =
          role === 'user' ? `${PUBLIC_URL}/forgot-password` : `${BACKOFFICE_URL}/#/forgot-password`;
        return [this.mail(event, 'password-changed', account, { name: account.name, forgotUrl })];
      }
      case CouponApproved.type:
      case CouponRejected.type: {
        const merchant = await merchantRecipient(manager, Number(payload.merchantId));
        if (!merchant) return [];
        // Its title in the merchant's language where the coupon has one (events since coupons had texts).
        const texts = (payload.texts ?? {}) as CouponTexts;
        const common = {
          name: merchant.name,
          title: texts[merchant.language as CouponTextLanguage]?.title ?? String(payload.title),
          url: `${BACKOFFICE_URL}/coupons/${id}`,
        };
        return [
          event.type === CouponApproved.type
            ? this.mail(event, 'coupon-approved', merchant, common)
            : this.mail(event, 'coupon-rejected', merchant, { ...common, reason: String(payload.reason) }),
        ];
      }
      case ProductApproved.type:
      case ProductRejected.type: {
        const merchantId = Number(payload.merchantId);
        const merchant = await merchantRecipient(manager, merchantId);
        if (!merchant) return [];
        const productName = String(payload.productName ?? '');
        return [
          event.type === ProductApproved.type
            ? this.mail(event, 'product-approved', merchant, {
                name: merchant.name,
                productName,
                url: `${PUBLIC_URL}/merchantUrl/${merchantId}`,
              })
            : this.mail(event, 'product-rejected', merchant, {
                name: merchant.name,
                productName,
                reason: String(payload.reason ?? ''),
                advisedChanges: String(payload.advisedChanges ?? ''),
                url: `${BACKOFFICE_URL}/products/${id}`,
              }),
        ];
      }
      case NewsletterConfirmationRequested.type: {
        const subscriber = await pendingSubscriber(manager, Number(payload.subscriberId));
        if (!subscriber) return []; // confirmed or unsubscribed meanwhile
        const token = newsletterConfirmToken(
          SESSION_SECRET,
          subscriber.id,
          subscriber.email,
          subscriber.sentAt,
        );
        return [
          this.mail(
            event,
            'newsletter-confirmation',
            { ...subscriber, name: subscriber.email },
            { confirmUrl: `${PUBLIC_URL}/api/newsletter/confirm?token=${encodeURIComponent(token)}` },
            newsletterHeaders(
              PUBLIC_URL,
              newsletterUnsubscribeToken(SESSION_SECRET, subscriber.id, subscriber.email),
              subscriber.language,
            ),
          ),
        ];
      }
      case ContactMessageReceived.type: {
        const message = await contactMessageById(manager, Number(payload.contactMessageId));
        if (!message) return [];
        const admins = await adminRecipients(manager);
        // Admins read the notice in English: the back-office is in English.
        return admins.map((admin) =>
          this.mail(
            event,
            'contact-notice',
            { email: admin.email, name: admin.username, language: 'en' },
            {
              name: message.name,
              email: message.email,
              mobile: message.mobile,
              message: message.msg,
              url: `${BACKOFFICE_URL}/contact-messages/${message.id}`,
            },
          ),
        );
      }
      case PayoutPaid.type:
      case PayoutFailed.type: {
        const payout = await payoutById(manager, Number(id));
        const shopper = payout && (await shopperRecipient(manager, payout.userId));
        if (!payout || !shopper) return [];
        const common = {
          name: shopper.name,
          amountPaise: Number(payload.amountPaise),
          earningsUrl: earningsUrl(PUBLIC_URL, shopper.language),
        };
        return [
          event.type === PayoutPaid.type
            ? this.mail(event, 'payout-paid', shopper, {
                ...common,
                // The account's last four digits only: mail is no place for a full account number.
                destination: destinationOf(payout),
                bankReference: String(payload.bankReference),
              })
            : this.mail(event, 'payout-failed', shopper, { ...common, reason: String(payload.reason) }),
        ];
      }
      case ReferralRewardEarned.type: {
        const referrer = payload.referrerType === 'merchant' ? 'merchant' : 'user';
        const referrerId = Number(payload.referrerId);
        const recipient =
          referrer === 'merchant'
            ? await merchantRecipient(manager, referrerId)
            : await shopperRecipient(manager, referrerId);
        if (!recipient) return [];
        return [
          this.mail(event, 'referral-bonus', recipient, {
            name: recipient.name,
            amountPaise: Number(payload.amountPaise),
            referrer,
            url:
              referrer === 'merchant'
                ? `${BACKOFFICE_URL}/#/referral`
                : earningsUrl(PUBLIC_URL, recipient.language),
          }),
        ];
      }
      case ClaimApproved.type:
      case ClaimRejected.type: {
        // Only a claim the shopper filed is news to them; a held purchase they never asked about is not.
        if (payload.kind !== 'claim') return [];
        const facts = await claimMailFacts(manager, Number(id));
        if (!facts) return [];
        const shopper = await shopperRecipient(manager, facts.userId);
        if (!shopper) return [];
        const common = {
          name: shopper.name,
          storeName: facts.storeName,
          orderId: facts.orderId,
          claimsUrl: `${PUBLIC_URL}${localePath(shopper.language, '/account/claims')}`,
        };
        return [
          event.type === ClaimApproved.type
            ? this.mail(event, 'claim-approved', shopper, {
                ...common,
                cashbackPaise: facts.cashbackPaise ?? 0,
              })
            : this.mail(event, 'claim-rejected', shopper, { ...common, reason: facts.reason ?? '' }),
        ];
      }
      case GrievanceFiled.type:
      case GrievanceAnswered.type: {
        const grievance = await grievanceMailFacts(manager, Number(payload.grievanceId));
        // A grievance of an erased account names nobody to write to any more.
        if (!grievance || grievance.email.endsWith(FORGOTTEN_DOMAIN)) return [];
        const to = { email: grievance.email, name: grievance.name, language: asLanguage(grievance.language) };
        const common = { name: grievance.name, reference: grievance.reference, subject: grievance.subject };
        return [
          event.type === GrievanceFiled.type
            ? this.mail(event, 'grievance-received', to, {
                ...common,
                dueAt: new Date(grievance.dueAt).toISOString(),
              })
            : this.mail(event, 'grievance-answered', to, { ...common, answer: grievance.answer ?? '' }),
        ];
      }
      case AccountDeletionRequested.type:
      case AccountDeletionConfirmed.type: {
        // The links are derived here from the request's id and time: no event holds them, and the
        // table keeps only their digests. A request gone on (confirmed, cancelled) mails nothing.
        const request = await deletionRequestById(manager, id);
        const expected = event.type === AccountDeletionRequested.type ? 'awaiting_confirmation' : 'scheduled';
        if (!request || request.state !== expected) return [];
        const to =
          request.personKind === 'shopper'
            ? await shopperRecipient(manager, request.personId)
            : await merchantRecipient(manager, request.personId);
        if (!to) return [];
        const link = (purpose: 'confirm' | 'cancel') =>
          `${PUBLIC_URL}/api/account-deletion/${purpose}?token=${encodeURIComponent(
            deletionLinkToken(SESSION_SECRET, purpose, request.id, request.requestedAt),
          )}&lang=${to.language}`;
        return [
          event.type === AccountDeletionRequested.type
            ? this.mail(event, 'account-deletion-confirm', to, {
                name: to.name,
                confirmUrl: link('confirm'),
                validForHours: ACCOUNT_DELETION.confirmValidForHours,
              })
            : this.mail(event, 'account-deletion-scheduled', to, {
                name: to.name,
                eraseAfter: request.eraseAfter ?? new Date(String(payload.eraseAfter)),
                cancelUrl: link('cancel'),
              }),
        ];
      }
      default:
        return [];
    }
  }

  private mail<T extends MailTemplate>(
    event: PublishedEvent,
    template: T,
    to: Recipient,
    parameters: MailParameters[T],
    headers?: Record<string, string>,
  ): OutgoingMail {
    return {
      idempotencyKey: `${event.id}:${to.email.toLowerCase()}`,
      template,
      recipient: to.email,
      language: to.language,
      content: renderMail(template, to.language, parameters),
      parameters,
      headers,
    };
  }
}

/** The domain an erasure gives a forgotten person's address (api/src/privacy/forget-person.ts). */
const FORGOTTEN_DOMAIN = '@forgotten.invalid';

const asLanguage = (language: string): Language =>
  (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : 'en';

/** The shopper's earnings, balance and payouts, in the shopper's language. */
export const earningsUrl = (publicUrl: string, language: Language) =>
  `${publicUrl}${localePath(language, '/account/earnings')}`;

/** None for a store without an account (a network advertiser's): nobody reads its mail. */
async function merchantRecipient(manager: EntityManager, merchantId: number): Promise<Recipient | undefined> {
  return asRecipient((await merchantRecipients(manager, [merchantId])).get(merchantId));
}

async function shopperRecipient(manager: EntityManager, userId: number): Promise<Recipient | undefined> {
  return asRecipient((await shopperRecipients(manager, [userId])).get(userId));
}

/** Identity keeps the account's language as the account chose it: one of the mails' languages. */
const asRecipient = <T extends Pick<MailRecipient, 'language'>>(
  recipient: T | undefined,
): (T & { language: Language }) | undefined =>
  recipient && { ...recipient, language: recipient.language as Language };

/** `List-Unsubscribe` with one-click unsubscribe (RFC 8058) for every newsletter mail. */
export function newsletterHeaders(
  publicUrl: string,
  unsubscribeToken: string,
  language?: string,
): Record<string, string> {
  return {
    'List-Unsubscribe': `<${newsletterUnsubscribeUrl(publicUrl, unsubscribeToken, language)}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/** The unsubscribe link; it names the mail's language, which the page it opens speaks. */
export const newsletterUnsubscribeUrl = (publicUrl: string, token: string, language?: string) =>
  `${publicUrl}/api/newsletter/unsubscribe?token=${encodeURIComponent(token)}${language ? `&lang=${language}` : ''}`;
