import { noticePage } from '../infrastructure/http/notice-page.js';
import type { Language } from '../rules/engagement.js';

type PageText =
  | 'askConfirm'
  | 'confirmButton'
  | 'askCancel'
  | 'cancelButton'
  | 'cancelled'
  | 'invalid'
  | 'refused'
  | 'home';

const TEXTS: Record<Language, Record<PageText, string> & { confirmed: (date: string) => string }> = {
  en: {
    askConfirm: 'Delete your Offers Marketplace account?',
    confirmButton: 'Yes, delete my account',
    askCancel: 'Keep your Offers Marketplace account?',
    cancelButton: 'Keep my account',
    confirmed: (date) =>
      `Your account will be deleted on ${date}. You have been signed out everywhere; sign in before then to cancel.`,
    cancelled: 'Your account will not be deleted.',
    invalid: 'This link is invalid, used or expired.',
    refused:
      'Your account was not scheduled for deletion: something must be finished first. Sign in and ask again to see what.',
    home: 'Go to Offers Marketplace',
  },
  hi: {
    askConfirm: 'अपना ऑफ़र्स मार्केटप्लेस खाता हटाएँ?',
    confirmButton: 'हाँ, मेरा खाता हटाएँ',
    askCancel: 'अपना ऑफ़र्स मार्केटप्लेस खाता रखें?',
    cancelButton: 'मेरा खाता रखें',
    confirmed: (date) =>
      `आपका खाता ${date} को हटा दिया जाएगा। आपको हर जगह से साइन आउट कर दिया गया है; रद्द करने के लिए उससे पहले साइन इन करें।`,
    cancelled: 'आपका खाता नहीं हटाया जाएगा।',
    invalid: 'यह लिंक अमान्य है, इस्तेमाल हो चुका है या इसकी समय-सीमा खत्म हो गई है।',
    refused:
      'आपका खाता हटाने के लिए तय नहीं हुआ: पहले कुछ पूरा होना बाकी है। क्या बाकी है, यह देखने के लिए साइन इन करके फिर से अनुरोध करें।',
    home: 'ऑफ़र्स मार्केटप्लेस पर जाएँ',
  },
  te: {
    askConfirm: 'మీ ఆఫర్స్ మార్కెట్‌ప్లేస్ ఖాతాను తొలగించాలా?',
    confirmButton: 'అవును, నా ఖాతాను తొలగించండి',
    askCancel: 'మీ ఆఫర్స్ మార్కెట్‌ప్లేస్ ఖాతాను ఉంచుకోవాలా?',
    cancelButton: 'నా ఖాతాను ఉంచండి',
    confirmed: (date) =>
      `మీ ఖాతా ${date}న తొలగించబడుతుంది. మీరు అన్ని చోట్లా సైన్ అవుట్ అయ్యారు; రద్దు చేయడానికి అంతకు ముందే సైన్ ఇన్ చేయండి.`,
    cancelled: 'మీ ఖాతా తొలగించబడదు.',
    invalid: 'ఈ లింక్ చెల్లదు, ఇప్పటికే వాడారు లేదా గడువు ముగిసింది.',
    refused: 'మీ ఖాతా తొలగింపుకు షెడ్యూల్ కాలేదు: ముందుగా ఏదో పూర్తి కావాలి. అది ఏమిటో చూడటానికి సైన్ ఇన్ చేసి మళ్లీ అడగండి.',
    home: 'ఆఫర్స్ మార్కెట్‌ప్లేస్‌కు వెళ్లండి',
  },
};

const LOCALES: Record<Language, string> = { en: 'en-IN', hi: 'hi-IN', te: 'te-IN' };

/** A date as India's calendar shows it, in the reader's language. */
export const deletionDate = (date: Date, language: Language) =>
  new Intl.DateTimeFormat(LOCALES[language] ?? 'en-IN', {
    dateStyle: 'long',
    timeZone: 'Asia/Kolkata',
  }).format(date);

/**
 * What a deletion link's GET shows: a question and a button that posts to the same address, so a
 * mail scanner following every link deletes or keeps nobody's account.
 */
export function deletionLinkQuestion(purpose: 'confirm' | 'cancel', language: Language, publicUrl: string) {
  const text = TEXTS[language] ?? TEXTS.en;
  return purpose === 'confirm'
    ? noticePage(text.askConfirm, text.home, language, publicUrl, text.confirmButton)
    : noticePage(text.askCancel, text.home, language, publicUrl, text.cancelButton);
}

/** The page after the button: scheduled (with the date), cancelled, refused, or a link that is not one. */
export function deletionLinkOutcome(
  outcome: 'confirmed' | 'cancelled' | 'invalid' | 'refused',
  language: Language,
  publicUrl: string,
  eraseAfter?: Date,
) {
  const text = TEXTS[language] ?? TEXTS.en;
  const heading =
    outcome === 'confirmed' && eraseAfter
      ? text.confirmed(deletionDate(eraseAfter, language))
      : outcome === 'cancelled'
        ? text.cancelled
        : outcome === 'refused'
          ? text.refused
          : text.invalid;
  return noticePage(heading, text.home, language, publicUrl);
}
