import { noticePage } from '../infrastructure/http/notice-page.js';
import type { Language } from '../rules/engagement.js';
import type { StoreAlertLinkOutcome } from './commands/follows.js';

const TEXTS: Record<
  Language,
  { unfollowed: (store: string) => string; invalid: string; home: string; ask: string; button: string }
> = {
  en: {
    ask: 'Stop the alerts of this store? You will no longer follow it.',
    button: 'Stop the alerts',
    unfollowed: (store) => `You no longer follow ${store}. You will get no more alerts from it.`,
    invalid: 'This link is not valid any more.',
    home: 'Go to Offers Marketplace',
  },
  hi: {
    ask: 'इस स्टोर के अलर्ट बंद करें? आप इसे फ़ॉलो नहीं करेंगे।',
    button: 'अलर्ट बंद करें',
    unfollowed: (store) => `अब आप ${store} को फ़ॉलो नहीं करते। इसके अलर्ट अब आपको नहीं मिलेंगे।`,
    invalid: 'यह लिंक अब मान्य नहीं है।',
    home: 'ऑफ़र्स मार्केटप्लेस पर जाएँ',
  },
  te: {
    ask: 'ఈ స్టోర్ హెచ్చరికలు ఆపాలా? మీరు ఇకపై దీనిని అనుసరించరు.',
    button: 'హెచ్చరికలు ఆపండి',
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

/**
 * What a store alert's unsubscribe link opens (GET): a question and a button that confirms, so a
 * mail scanner that follows links unfollows nothing. The button posts to the same link.
 */
export function storeAlertAsk(language: Language, publicUrl: string): string {
  const text = TEXTS[language] ?? TEXTS.en;
  return noticePage(text.ask, text.home, language, publicUrl, text.button);
}

/** The page of a link that is not one (no signed token at all), before anything is looked up. */
export function storeAlertInvalid(language: Language, publicUrl: string): string {
  const text = TEXTS[language] ?? TEXTS.en;
  return noticePage(text.invalid, text.home, language, publicUrl);
}
