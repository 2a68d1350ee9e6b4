import { noticePage } from '../http/notice-page.js';
import type { Language } from '../rules/engagement.js';
import type { StoreAlertLinkOutcome } from './commands/follows.js';

const TEXTS: Record<Language, { unfollowed: (store: string) => string; invalid: string; home: string }> = {
  en: {
    unfollowed: (store) => `You no longer follow ${store}. You will get no more alerts from it.`,
    invalid: 'This link is not valid any more.',
    home: 'Go to Offers Marketplace',
  },
  hi: {
    unfollowed: (store) => `अब आप ${store} को फ़ॉलो नहीं करते। इसके अलर्ट अब आपको नहीं मिलेंगे।`,
    invalid: 'यह लिंक अब मान्य नहीं है।',
    home: 'ऑफ़र्स मार्केटप्लेस पर जाएँ',
  },
  te: {
    unfollowed: (store) => `మీరు ఇకపై ${store}‌ను అనుసరించడం లేదు. దాని హెచ్చరికలు ఇకపై మీకు రావు.`,
    invalid: 'ఈ లింక్ ఇప్పుడు చెల్లదు.',
    home: 'ఆఫర్స్ మార్కెట్‌ప్లేస్‌కు వెళ్లండి',
  },
};

/** The page a store alert's unsubscribe link opens, in the follower's language. */
export function storeAlertPage(result: StoreAlertLinkOutcome, publicUrl: string): string {
  const text = TEXTS[result.language] ?? TEXTS.en;
  const heading = result.outcome === 'unfollowed' ? text.unfollowed(result.storeName) : text.invalid;
  return noticePage(heading, text.home, result.language, publicUrl);
}
