import { forgetClaims } from '../claims/forget-person.js';
import { forgetClicks } from '../clicks/forget-person.js';
import { forgetCouponVotes } from '../coupons/forget-person.js';
import { forgetEarnings } from '../earnings/forget-person.js';
import { forgetEngagement } from '../engagement/forget-person.js';
import { forgetFollows } from '../follows/forget-person.js';
import { forgetIdentity } from '../identity/forget-person.js';
import { forgetCallerAnswers } from '../infrastructure/idempotency/forget-caller.js';
import { forgetMail } from '../mail/forget-person.js';
import { forgetPayouts } from '../payouts/forget-person.js';
import { forgetPrivacy } from './forget-person.js';
import { accountRole, type ForgetPerson } from './person.js';

/** The idempotency store knows no feature: the person is named to it as its callers are. */
const forgetStoredAnswers: ForgetPerson = async (manager, person) => ({
  removed: {
    idempotency_keys: await forgetCallerAnswers(manager, `${accountRole(person)}:${person.id}`, person.email),
  },
  anonymised: {},
});

/**
 * Every owner of personal data, asked in turn to forget the person, all in one transaction:
 * children before parents (a claim's invoice before the claim's account), the account last, once
 * nothing else needs to find the person by it. Private media is forgotten by claims, the feature
 * that knows whose invoices are whose.
 */
export const PERSON_FORGETTERS: ReadonlyArray<{ owner: string; forget: ForgetPerson }> = [
  { owner: 'idempotency', forget: forgetStoredAnswers },
  { owner: 'mail', forget: forgetMail },
  { owner: 'engagement', forget: forgetEngagement },
  { owner: 'follows', forget: forgetFollows },
  { owner: 'coupons', forget: forgetCouponVotes },
  { owner: 'clicks', forget: forgetClicks },
  { owner: 'claims', forget: forgetClaims },
  { owner: 'payouts', forget: forgetPayouts },
  { owner: 'earnings', forget: forgetEarnings },
  { owner: 'privacy', forget: forgetPrivacy },
  { owner: 'identity', forget: forgetIdentity },
];
