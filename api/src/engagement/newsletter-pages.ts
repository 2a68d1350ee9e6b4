import { noticePage } from '../infrastructure/http/notice-page.js';
import type { Language } from '../rules/engagement.js';
import type { NewsletterLinkOutcome } from './commands/newsletter.js';

const TEXTS: Record<Language, Record<NewsletterLinkOutcome | 'home' | 'ask' | 'button', string>> = {
  en: {
    ask: 'Unsubscribe from the Offers Marketplace newsletter?',
    button: 'Unsubscribe',
    confirmed: 'Your subscription is confirmed. Thank you!',
    unsubscribed: 'You have been unsubscribed. You will receive no more newsletters.',
    invalid: 'This link is not valid any more.',
    home: 'Go to Offers Marketplace',
  },
  hi: {
    ask: 'ऑफ़र्स मार्केटप्लेस के न्यूज़लेटर से सदस्यता समाप्त करें?',
    button: 'सदस्यता समाप्त करें',
    confirmed: 'आपकी सदस्यता की पुष्टि हो गई है। धन्यवाद!',
    unsubscribed: 'आपकी सदस्यता समाप्त कर दी गई है। अब आपको कोई न्यूज़लेटर नहीं मिलेगा।',
    invalid: 'यह लिंक अब मान्य नहीं है।',
    home: 'ऑफ़र्स मार्केटप्लेस पर जाएँ',
  },
  te: {
    ask: 'ఆఫర్స్ మార్కెట్‌ప్లేస్ న్యూస్‌లెటర్ చందాను రద్దు చేయాలా?',
    button: 'చందా రద్దు చేయండి',
    confirmed: 'మీ చందా నిర్ధారించబడింది. ధన్యవాదాలు!',
    unsubscribed: 'మీ చందా రద్దు చేయబడింది. ఇకపై మీకు న్యూస్‌లెటర్లు రావు.',
    invalid: 'ఈ లింక్ ఇప్పుడు చెల్లదు.',
    home: 'ఆఫర్స్ మార్కెట్‌ప్లేస్‌కు వెళ్లండి',
  },
};

/** The page a newsletter link opens, in the subscriber's language. */
export function newsletterPage(
  outcome: NewsletterLinkOutcome,
  language: Language,
  publicUrl: string,
): string {
  const text = TEXTS[language] ?? TEXTS.en;
  return noticePage(text[outcome], text.home, language, publicUrl);
}

/**
 * What an unsubscribe link opens (GET): a question and a button that confirms, so a mail scanner
 * that follows links unsubscribes no one. The button posts to the same link, which then acts.
 */
export function newsletterUnsubscribeAsk(language: Language, publicUrl: string): string {
  const text = TEXTS[language] ?? TEXTS.en;
  return noticePage(text.ask, text.home, language, publicUrl, text.button);
}
