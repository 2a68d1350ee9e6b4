import { changeStoreCashback, type StoreCashbackChanges } from '../cashback/commands/store-cashback.js';
import type { Transaction } from '../infrastructure/events/unit-of-work.js';
import type { CashbackTexts } from '../rules/cashback.js';

/**
 * What the demo's stores pay, as an admin would set it: rates the way Indian cashback sites show
 * them (a base rate, a few categories above or below it, flat rupees for travel and food), the days
 * each takes to confirm and a store or two paying nothing, so a new user sees every form the site
 * shows: "up to" on cards, a store page's table and terms, and a store that says nothing.
 */
const PROFILES: StoreCashbackChanges[] = [
  {
    base: { percent: '6' },
    categories: [
      { name: 'Skin care', rate: { percent: '7.5' } },
      { name: 'Hair care', rate: { percent: '4' } },
    ],
    confirmDays: 45,
    terms: texts(
      'Cashback is paid on the amount after discounts, without delivery charges.',
      'कैशबैक छूट के बाद की राशि पर मिलता है, डिलीवरी शुल्क के बिना।',
      'క్యాష్‌బ్యాక్ డిస్కౌంట్ తర్వాతి మొత్తంపై, డెలివరీ ఛార్జీలు లేకుండా లభిస్తుంది.',
    ),
    exclusions: texts(
      'Not paid on gift cards or orders paid with store credit.',
      'गिफ्ट कार्ड या स्टोर क्रेडिट से चुकाए गए ऑर्डर पर नहीं मिलता।',
      'గిఫ్ట్ కార్డులు లేదా స్టోర్ క్రెడిట్‌తో చెల్లించిన ఆర్డర్లపై లభించదు.',
    ),
  },
  {
    base: { percent: '3' },
    categories: [{ name: 'New customers', rate: { percent: '8' } }],
    confirmDays: 60,
    terms: texts(
      'The new-customer rate applies to your first order at the store.',
      'नए ग्राहक की दर स्टोर पर आपके पहले ऑर्डर पर लागू होती है।',
      'కొత్త కస్టమర్ రేటు స్టోర్‌లో మీ మొదటి ఆర్డర్‌కు వర్తిస్తుంది.',
    ),
  },
  { base: { rupees: '150' }, confirmDays: 90, capRupees: '2000' },
  { base: { percent: '4.5' }, confirmDays: 30 },
  { base: { rupees: '40' }, confirmDays: 30 },
  { base: { percent: '0' } },
];

function texts(en: string, hi: string, te: string): CashbackTexts {
  return { en, hi, te };
}

/** The same store gets the same rates on every install: a profile picked by its name. */
function profileOf(name: string): StoreCashbackChanges {
  let hash = 0;
  for (const character of name) hash = (hash * 31 + character.charCodeAt(0)) >>> 0;
  return PROFILES[hash % PROFILES.length]!;
}

/** Sets a demo store's cashback in the caller's transaction, through the admins' command. */
export async function setDemoCashback(
  tx: Transaction,
  storeId: number,
  storeName: string,
  adminId: number,
): Promise<void> {
  await changeStoreCashback(tx, storeId, profileOf(storeName), {
    origin: 'admin',
    adminId,
    note: 'demo',
  });
}
