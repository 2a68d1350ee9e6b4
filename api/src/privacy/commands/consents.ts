import { NotFoundException } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { subscribeAddress, unsubscribeAddress } from '../../engagement/commands/newsletter.js';
import { shopperRecipients } from '../../identity/queries/mail-recipients.js';
import { lockShopper } from '../../identity/queries/shopper-locks.js';
import { type Transaction, UnitOfWork } from '../../infrastructure/events/unit-of-work.js';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../rules/engagement.js';
import { CONSENTS, type ConsentPurpose, PRIVACY_NOTICE_VERSION } from '../../rules/privacy.js';
import { type Holder, recordConsents } from '../consent-store.js';
import { type CurrentConsent, currentConsents } from '../queries/consents.js';

/** Gives or withdraws one consent of a shopper; answers the consents as they now are. */
export class ChangeConsent extends Command<CurrentConsent[]> {
  constructor(
    readonly holder: Holder,
    readonly purpose: ConsentPurpose,
    readonly given: boolean,
  ) {
    super();
  }
}

/**
 * One click each way. Every change is a row (the history stays) under the current notice's version;
 * asking for the state the consent already has records nothing. What a consent covers stops or
 * starts in the same transaction: the newsletter's subscription of the account's address ends at
 * once when withdrawn; store alerts and offers are checked by their senders at sending time.
 */
@CommandHandler(ChangeConsent)
export class ChangeConsentHandler implements ICommandHandler<ChangeConsent> {
  constructor(private readonly unitOfWork: UnitOfWork) {}

  execute({ holder, purpose, given }: ChangeConsent) {
    return this.unitOfWork.run(async (tx) => {
      // Serialises one account's changes, so two clicks at once leave one history in order.
      if (!(await lockShopper(tx.manager, holder.id, 'FOR NO KEY UPDATE')))
        throw new NotFoundException({ statusCode: 404, message: CONSENTS.noAccount });
      const current = (await currentConsents(tx.manager, holder)).find(
        (consent) => consent.purpose === purpose,
      );
      const unchanged = current?.noticeVersion != null && current.given === given;
      if (!unchanged) await recordConsents(tx, holder, [{ purpose, given }], PRIVACY_NOTICE_VERSION);
      // Even unchanged, the subscription follows the consent (one ended from a mail's link is renewed).
      if (purpose === 'newsletter') await followNewsletterConsent(tx, holder.id, given);
      return currentConsents(tx.manager, holder);
    });
  }
}

/**
 * The newsletter consent of an account is its address's subscription. Giving it subscribes the
 * address by double opt-in (a shopper's address is never confirmed at registration, so the
 * confirmation mail proves it is theirs); withdrawing it unsubscribes the address at once.
 */
export async function followNewsletterConsent(tx: Transaction, userId: number, given: boolean) {
  const shopper = (await shopperRecipients(tx.manager, [userId])).get(userId);
  if (!shopper) throw new NotFoundException({ statusCode: 404, message: CONSENTS.noAccount });
  if (given) await subscribeAddress(tx, shopper.email, languageOf(shopper.language));
  else await unsubscribeAddress(tx, shopper.email);
}

const languageOf = (language: string): Language =>
  (LANGUAGES as readonly string[]).includes(language) ? (language as Language) : DEFAULT_LANGUAGE;
