import type { Language } from '../rules/engagement.js';
import type { NewsletterLinkOutcome } from './commands/newsletter.js';

const TEXTS: Record<Language, Record<NewsletterLinkOutcome | 'home', string>> = {
  en: {
    confirmed: 'Your subscription is confirmed. Thank you!',
    unsubscribed: 'You have been unsubscribed. You will receive no more newsletters.',
    invalid: 'This link is not valid any more.',
    home: 'Go to Offers Marketplace',
  },
  hi: {
    confirmed: 'आपकी सदस्यता की पुष्टि हो गई है। धन्यवाद!',
    unsubscribed: 'आपकी सदस्यता समाप्त कर दी गई है। अब आपको कोई न्यूज़लेटर नहीं मिलेगा।',
    invalid: 'यह लिंक अब मान्य नहीं है।',
    home: 'ऑफ़र्स मार्केटप्लेस पर जाएँ',
  },
  te: {
    confirmed: 'మీ చందా నిర్ధారించబడింది. ధన్యవాదాలు!',
    unsubscribed: 'మీ చందా రద్దు చేయబడింది. ఇకపై మీకు న్యూస్‌లెటర్లు రావు.',
    invalid: 'ఈ లింక్ ఇప్పుడు చెల్లదు.',
    home: 'ఆఫర్స్ మార్కెట్‌ప్లేస్‌కు వెళ్లండి',
  },
};

/**
 * The small page a newsletter link opens, in the subscriber's language: it works from any mail
 * client without the web app, and links to the public site.
 */
export function newsletterPage(
  outcome: NewsletterLinkOutcome,
  language: Language,
  publicUrl: string,
): string {
  const text = TEXTS[language] ?? TEXTS.en;
  const home = publicUrl.replace(/[&<>"']/g, '');
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text[outcome]}</title></head>
<body style="font-family:Arial,'Noto Sans',sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5">
<h1 style="font-size:1.4rem">${text[outcome]}</h1>
<p><a href="${home}">${text.home}</a></p>
</body></html>`;
}
