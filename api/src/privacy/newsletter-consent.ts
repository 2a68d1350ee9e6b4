import { shopperIdsByEmail } from '../identity/queries/mail-recipients.js';
import type { Transaction } from '../infrastructure/events/unit-of-work.js';
import { PRIVACY_NOTICE_VERSION } from '../rules/privacy.js';
import { recordConsents } from './consent-store.js';
import { currentConsents } from './queries/consents.js';

/**
 * An account's newsletter consent follows its address's subscription when a mailed link changes
 * it: confirming the subscription gives the consent, unsubscribing withdraws it, so "Your
 * consents" never shows a newsletter the mails say otherwise of. An address of no account, or a
 * consent already in that state, records nothing.
 */
export async function noteAddressSubscription(tx: Transaction, email: string, subscribed: boolean) {
  const userId = (await shopperIdsByEmail(tx.manager, [email])).get(email.toLowerCase());
  if (userId === undefined) return;
  const holder = { kind: 'shopper' as const, id: userId };
  const current = (await currentConsents(tx.manager, holder)).find(({ purpose }) => purpose === 'newsletter');
  if (current?.noticeVersion != null && current.given === subscribed) return;
  await recordConsents(tx, holder, [{ purpose: 'newsletter', given: subscribed }], PRIVACY_NOTICE_VERSION);
}
