import { preferredLanguage } from '../infrastructure/http/languages.js';
import { noticePage } from '../infrastructure/http/notice-page.js';
import { CLICK_OUT } from '../rules/clicks.js';
import { LANGUAGES, type Language } from '../rules/engagement.js';

const TEXTS: Record<Language, { unavailable: string; home: string }> = {
  en: { unavailable: CLICK_OUT.unavailable, home: 'See other offers on Offers Marketplace' },
  hi: {
    unavailable: 'यह ऑफ़र अब उपलब्ध नहीं है।',
    home: 'ऑफ़र्स मार्केटप्लेस पर दूसरे ऑफ़र देखें',
  },
  te: {
    unavailable: 'ఈ ఆఫర్ ఇప్పుడు అందుబాటులో లేదు.',
    home: 'ఆఫర్స్ మార్కెట్‌ప్లేస్‌లో ఇతర ఆఫర్‌లను చూడండి',
  },
};

/** The public site's language cookie (set by its language menu), else what the browser asks for. */
export function visitorLanguage(languageCookie: unknown, acceptLanguage: unknown): Language {
  return (LANGUAGES as readonly unknown[]).includes(languageCookie)
    ? (languageCookie as Language)
    : preferredLanguage(acceptLanguage);
}

/** What a browser shows for a click-out link whose offer ended: a page linking to the site's others. */
export function unavailableOfferPage(language: Language, publicUrl: string): string {
  const text = TEXTS[language];
  const home = language === 'en' ? publicUrl : `${publicUrl.replace(/\/$/, '')}/${language}`;
  return noticePage(text.unavailable, text.home, language, home);
}
