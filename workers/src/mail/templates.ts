import { escapeHtml } from '@offers/api/platform';
import type { RenderedMail } from '@offers/api/read-models';
import { type Language, plural } from '@offers/api/rules';

/** A block of a mail: a paragraph, a quoted text the sender wrote (a reason), or a list of links. */
type Block = string | { quote: string } | { links: Array<{ label: string; url: string }> };

interface Message {
  subject: string;
  blocks: Block[];
  action?: { label: string; url: string };
  /** Small print under the signature (why this mail came, how to stop it). */
  footer?: Block[];
}

export interface MailParameters {
  'user-welcome': { name: string; siteUrl: string; referralLink: string };
  'merchant-welcome': { name: string; confirmUrl: string; validForHours: number };
  'password-reset': { name: string; resetUrl: string; validForMinutes: number };
  'password-changed': { name: string; forgotUrl: string };
  'coupon-approved': { name: string; title: string; url: string };
  'coupon-rejected': { name: string; title: string; reason: string; url: string };
  'product-approved': { name: string; productName: string; url: string };
  'product-rejected': {
    name: string;
    productName: string;
    reason: string;
    advisedChanges: string;
    url: string;
  };
  'newsletter-confirmation': { confirmUrl: string };
  'contact-notice': { name: string; email: string; mobile: string | null; message: string; url: string };
  'store-alert': {
    name: string;
    storeName: string;
    storeUrl: string;
    /** The new offers, each linking to its card on the store page. */
    offers: Array<{ label: string; url: string }>;
    /** Further new offers not listed (see STORE_ALERTS.maxOffersPerMail). */
    more: number;
    unsubscribeUrl: string;
  };
  campaign: {
    subject: string;
    body: string;
    coupons: Array<{ label: string; url: string }>;
    unsubscribeUrl: string;
  };
  /** A shopper's purchases tracked and cashback confirmed since the last digest (one mail a day at most). */
  'earning-updates': { name: string; updates: EarningUpdate[]; earningsUrl: string };
  'payout-paid': {
    name: string;
    amountPaise: number;
    /** The UPI ID, or the account's last four digits and its IFSC. */
    destination: string;
    bankReference: string;
    earningsUrl: string;
  };
  'payout-failed': { name: string; amountPaise: number; reason: string; earningsUrl: string };
  'referral-bonus': {
    name: string;
    amountPaise: number;
    /** A referring user reads their earnings on the site; a merchant its referral page. */
    referrer: 'user' | 'merchant';
    url: string;
  };
  /** A missing-cashback claim approved: its cashback is pending, as a store's report would be. */
  'claim-approved': {
    name: string;
    storeName: string;
    orderId: string;
    cashbackPaise: number;
    claimsUrl: string;
  };
  'claim-rejected': { name: string; storeName: string; orderId: string; reason: string; claimsUrl: string };
  /** A grievance about personal data acknowledged: its reference and the date the answer is due by (ISO). */
  'grievance-received': { name: string; reference: string; subject: string; dueAt: string };
  /** The admins' answer to a grievance. */
  'grievance-answered': { name: string; reference: string; subject: string; answer: string };
  /** The link that confirms an account's deletion (it works for `validForHours`). */
  'account-deletion-confirm': { name: string; confirmUrl: string; validForHours: number };
  /** The deletion confirmed: the day of the erasure, and the link that cancels it meanwhile. */
  'account-deletion-scheduled': { name: string; eraseAfter: Date; cancelUrl: string };
}
export type MailTemplate = keyof MailParameters;

/** One line of the earnings digest: a purchase tracked (its cashback pending) or its cashback confirmed. */
export interface EarningUpdate {
  step: 'tracked' | 'confirmed';
  storeName: string;
  purchasePaise: number;
  cashbackPaise: number;
  /** When the store is expected to confirm a tracked purchase (ISO), if known. */
  expectedBy: string | null;
  /** The earning's timeline on the site. */
  url: string;
}

/** Rupees as the recipient's language writes them, with Indian digit grouping: ₹1,23,456.50. */
const RUPEES: Record<Language, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' }),
  hi: new Intl.NumberFormat('hi-IN', { style: 'currency', currency: 'INR' }),
  te: new Intl.NumberFormat('te-IN', { style: 'currency', currency: 'INR' }),
};
export const rupeesIn = (language: Language, paise: number) => RUPEES[language].format(paise / 100);

type Templates = { [T in MailTemplate]: (p: MailParameters[T]) => Message };

const english: Templates = {
  'user-welcome': (p) => ({
    subject: `Welcome to Offers Marketplace, ${p.name}`,
    blocks: [
      `Hello ${p.name},`,
      'Thank you for joining Offers Marketplace. Reveal coupon codes of your favourite shops and earn cashback on every purchase you make through them.',
      `Invite your friends with your referral link and earn a bonus when they shop: ${p.referralLink}`,
    ],
    action: { label: 'Browse offers', url: p.siteUrl },
  }),
  'merchant-welcome': (p) => ({
    subject: 'Confirm your email address for Offers Marketplace',
    blocks: [
      `Hello ${p.name},`,
      'Welcome to Offers Marketplace. Please confirm your email address, so that we can reach you about your coupons and products.',
      plural('en', p.validForHours, {
        one: `The link works for ${p.validForHours} hour.`,
        other: `The link works for ${p.validForHours} hours.`,
      }),
    ],
    action: { label: 'Confirm email address', url: p.confirmUrl },
  }),
  'password-reset': (p) => ({
    subject: 'Reset your Offers Marketplace password',
    blocks: [
      `Hello ${p.name},`,
      'Someone asked to reset the password of your Offers Marketplace account. Choose a new password with the link below.',
      `The link works once, for ${plural('en', p.validForMinutes, { one: `${p.validForMinutes} minute`, other: `${p.validForMinutes} minutes` })}. If you did not ask for it, ignore this mail: your password stays as it is.`,
    ],
    action: { label: 'Choose a new password', url: p.resetUrl },
  }),
  'password-changed': (p) => ({
    subject: 'Your Offers Marketplace password was changed',
    blocks: [
      `Hello ${p.name},`,
      'The password of your Offers Marketplace account was just changed, and your other sessions were signed out.',
      'If this was not you, choose a new password now with the link below.',
    ],
    action: { label: 'Reset my password', url: p.forgotUrl },
  }),
  'coupon-approved': (p) => ({
    subject: `Your coupon “${p.title}” is live`,
    blocks: [
      `Hello ${p.name},`,
      `Good news: your coupon “${p.title}” has been approved and is shown to shoppers until its expiry date.`,
    ],
    action: { label: 'View your coupon', url: p.url },
  }),
  'coupon-rejected': (p) => ({
    subject: `Your coupon “${p.title}” was not approved`,
    blocks: [
      `Hello ${p.name},`,
      `Your coupon “${p.title}” was not approved, for this reason:`,
      { quote: p.reason },
      'You can submit a corrected coupon at any time.',
    ],
    action: { label: 'Open your coupons', url: p.url },
  }),
  'product-approved': (p) => ({
    subject: `Your product “${p.productName}” is on your store page`,
    blocks: [
      `Hello ${p.name},`,
      `Your product “${p.productName}” has been approved and now appears on your public store page.`,
    ],
    action: { label: 'View your store', url: p.url },
  }),
  'product-rejected': (p) => ({
    subject: `Your product “${p.productName}” needs changes`,
    blocks: [
      `Hello ${p.name},`,
      `Your product “${p.productName}” was not approved. The reason:`,
      { quote: p.reason },
      'Advised changes:',
      { quote: p.advisedChanges },
      'Make the changes and submit it again.',
    ],
    action: { label: 'Open your products', url: p.url },
  }),
  'newsletter-confirmation': (p) => ({
    subject: 'Please confirm your newsletter subscription',
    blocks: [
      'You (or someone using your address) asked to receive the Offers Marketplace newsletter with the best coupons and offers.',
      'If it was not you, ignore this mail: you will not be subscribed.',
    ],
    action: { label: 'Confirm subscription', url: p.confirmUrl },
  }),
  'contact-notice': (p) => ({
    subject: `New contact message from ${p.name}`,
    blocks: [`${p.name} <${p.email}>${p.mobile ? `, mobile ${p.mobile}` : ''} wrote:`, { quote: p.message }],
    action: { label: 'Open contact messages', url: p.url },
  }),
  'store-alert': (p) =>
    storeAlert(p, {
      subject:
        p.offers.length + p.more === 1
          ? `New at ${p.storeName}: ${p.offers[0]?.label}`
          : `${p.offers.length + p.more} new offers at ${p.storeName}`,
      hello: `Hello ${p.name},`,
      news:
        p.offers.length + p.more === 1
          ? `${p.storeName}, a store you follow, has a new offer:`
          : `${p.storeName}, a store you follow, has ${p.offers.length + p.more} new offers:`,
      more: `And ${p.more} more at the store.`,
      action: `See every offer of ${p.storeName}`,
      why: `You receive this mail because you follow ${p.storeName} on Offers Marketplace: at most one mail a day for each store you follow.`,
      stop: `Stop alerts from ${p.storeName}`,
    }),
  campaign: (p) => campaign(p, 'Featured offers', NEWSLETTER_FOOTER.en, 'Unsubscribe'),
  'earning-updates': (p) =>
    earningUpdates('en', p, {
      hello: `Hello ${p.name},`,
      subjectTracked: (u) =>
        `Your purchase at ${u.storeName} is tracked: ${rupeesIn('en', u.cashbackPaise)} cashback pending`,
      subjectConfirmed: (u) => `Your cashback of ${rupeesIn('en', u.cashbackPaise)} is confirmed`,
      subjectMany: (n) =>
        plural('en', n, { one: `${n} update on your cashback`, other: `${n} updates on your cashback` }),
      tracked: (u, by) =>
        `${u.storeName} tracked your purchase of ${rupeesIn('en', u.purchasePaise)}: your cashback of ${rupeesIn('en', u.cashbackPaise)} is pending${by ? `, expected to be confirmed by ${by}` : ''}.`,
      confirmed: (u) =>
        `${u.storeName} confirmed your purchase: your cashback of ${rupeesIn('en', u.cashbackPaise)} is now in your available balance.`,
      intro: 'Here is what changed in your cashback:',
      timeline: 'See its timeline',
      withdraw: 'You can withdraw it to your UPI ID or bank account from My earnings.',
      action: 'See my earnings',
      why: 'We mail you at most once a day about your purchases and cashback.',
    }),
  'payout-paid': (p) => ({
    subject: `Your payout of ${rupeesIn('en', p.amountPaise)} has been paid`,
    blocks: [
      `Hello ${p.name},`,
      `We have paid ${rupeesIn('en', p.amountPaise)} to ${p.destination}.`,
      `Bank reference: ${p.bankReference}. Your bank shows this reference with the transfer.`,
    ],
    action: { label: 'See my payouts', url: p.earningsUrl },
  }),
  'payout-failed': (p) => ({
    subject: `Your payout of ${rupeesIn('en', p.amountPaise)} could not be paid`,
    blocks: [
      `Hello ${p.name},`,
      `The transfer of your payout of ${rupeesIn('en', p.amountPaise)} failed, for this reason:`,
      { quote: p.reason },
      `The ${rupeesIn('en', p.amountPaise)} is back in your available balance. Check your UPI ID or bank details and request the payout again.`,
    ],
    action: { label: 'See my earnings', url: p.earningsUrl },
  }),
  'referral-bonus': (p) => ({
    subject: `You earned a referral bonus of ${rupeesIn('en', p.amountPaise)}`,
    blocks: [
      `Hello ${p.name},`,
      `A friend you referred made a first purchase that the store confirmed: you earned a referral bonus of ${rupeesIn('en', p.amountPaise)}.`,
      'Invite more friends with your referral link and earn a bonus for each of them.',
    ],
    action: {
      label: p.referrer === 'user' ? 'See my earnings' : 'Open my referral page',
      url: p.url,
    },
  }),
  'claim-approved': (p) => ({
    subject: `Your cashback claim for ${p.storeName} is approved`,
    blocks: [
      `Hello ${p.name},`,
      `We approved your claim for order ${p.orderId} at ${p.storeName}: ${rupeesIn('en', p.cashbackPaise)} of cashback is now pending in your earnings.`,
      'It is confirmed when the store confirms the purchase, like any other cashback.',
    ],
    action: { label: 'See my claims', url: p.claimsUrl },
  }),
  'claim-rejected': (p) => ({
    subject: `Your cashback claim for ${p.storeName} was not approved`,
    blocks: [
      `Hello ${p.name},`,
      `We could not approve your claim for order ${p.orderId} at ${p.storeName}, for this reason:`,
      { quote: p.reason },
      'If you think this is a mistake, write to us from the contact page with your invoice.',
    ],
    action: { label: 'See my claims', url: p.claimsUrl },
  }),
  'grievance-received': (p) => ({
    subject: `Your grievance ${p.reference} is recorded`,
    blocks: [
      `Hello ${p.name},`,
      `We have recorded your grievance “${p.subject}” under the reference ${p.reference}. Our grievance officer will answer you by mail by ${DATES.en.format(new Date(p.dueAt))} at the latest.`,
      'Quote the reference if you write to us about it.',
    ],
  }),
  'grievance-answered': (p) => ({
    subject: `Our answer to your grievance ${p.reference}`,
    blocks: [
      `Hello ${p.name},`,
      `Our grievance officer has answered your grievance “${p.subject}” (${p.reference}):`,
      { quote: p.answer },
    ],
  }),
  'account-deletion-confirm': (p) => ({
    subject: 'Confirm the deletion of your Offers Marketplace account',
    blocks: [
      `Hello ${p.name},`,
      'You asked us to delete your Offers Marketplace account. Confirm it with the link below; nothing is deleted until you do.',
      `The link works for ${plural('en', p.validForHours, { one: `${p.validForHours} hour`, other: `${p.validForHours} hours` })}. If you did not ask for this, ignore this mail: your account stays as it is.`,
    ],
    action: { label: 'Confirm the deletion', url: p.confirmUrl },
  }),
  'account-deletion-scheduled': (p) => ({
    subject: 'Your Offers Marketplace account will be deleted',
    blocks: [
      `Hello ${p.name},`,
      `Your account will be deleted on ${DATES.en.format(p.eraseAfter)}, with your follows, votes, claims and mails. You have been signed out everywhere.`,
      'Records the law asks us to keep (earnings and payouts: amounts, dates, references) stay, under a number that names nobody.',
      'Changed your mind? Cancel with the link below, or sign in before that day.',
    ],
    action: { label: 'Keep my account', url: p.cancelUrl },
  }),
};

const hindi: Templates = {
  'user-welcome': (p) => ({
    subject: `ऑफ़र्स मार्केटप्लेस में आपका स्वागत है, ${p.name}`,
    blocks: [
      `नमस्ते ${p.name},`,
      'ऑफ़र्स मार्केटप्लेस से जुड़ने के लिए धन्यवाद। अपनी पसंदीदा दुकानों के कूपन कोड देखें और उनके ज़रिए की गई हर ख़रीदारी पर कैशबैक कमाएँ।',
      `अपने रेफ़रल लिंक से दोस्तों को आमंत्रित करें और उनकी ख़रीदारी पर बोनस पाएँ: ${p.referralLink}`,
    ],
    action: { label: 'ऑफ़र देखें', url: p.siteUrl },
  }),
  'merchant-welcome': (p) => ({
    subject: 'ऑफ़र्स मार्केटप्लेस के लिए अपने ईमेल पते की पुष्टि करें',
    blocks: [
      `नमस्ते ${p.name},`,
      'ऑफ़र्स मार्केटप्लेस में आपका स्वागत है। कृपया अपने ईमेल पते की पुष्टि करें, ताकि हम आपके कूपन और उत्पादों के बारे में आपसे संपर्क कर सकें।',
      `यह लिंक ${p.validForHours} घंटे तक काम करेगा।`,
    ],
    action: { label: 'ईमेल पते की पुष्टि करें', url: p.confirmUrl },
  }),
  'password-reset': (p) => ({
    subject: 'अपना ऑफ़र्स मार्केटप्लेस पासवर्ड रीसेट करें',
    blocks: [
      `नमस्ते ${p.name},`,
      'किसी ने आपके ऑफ़र्स मार्केटप्लेस खाते का पासवर्ड रीसेट करने का अनुरोध किया है। नीचे दिए लिंक से नया पासवर्ड चुनें।',
      `यह लिंक एक ही बार, ${p.validForMinutes} मिनट तक काम करता है। अगर आपने यह अनुरोध नहीं किया, तो इस मेल को अनदेखा करें: आपका पासवर्ड वही रहेगा।`,
    ],
    action: { label: 'नया पासवर्ड चुनें', url: p.resetUrl },
  }),
  'password-changed': (p) => ({
    subject: 'आपका ऑफ़र्स मार्केटप्लेस पासवर्ड बदल दिया गया',
    blocks: [
      `नमस्ते ${p.name},`,
      'आपके ऑफ़र्स मार्केटप्लेस खाते का पासवर्ड अभी बदला गया है, और आपके दूसरे सत्रों से साइन आउट कर दिया गया है।',
      'अगर यह आपने नहीं किया, तो नीचे दिए लिंक से अभी नया पासवर्ड चुनें।',
    ],
    action: { label: 'मेरा पासवर्ड रीसेट करें', url: p.forgotUrl },
  }),
  'coupon-approved': (p) => ({
    subject: `आपका कूपन “${p.title}” अब लाइव है`,
    blocks: [
      `नमस्ते ${p.name},`,
      `ख़ुशख़बरी: आपका कूपन “${p.title}” स्वीकृत हो गया है और इसकी समाप्ति तिथि तक ख़रीदारों को दिखाया जाएगा।`,
    ],
    action: { label: 'अपना कूपन देखें', url: p.url },
  }),
  'coupon-rejected': (p) => ({
    subject: `आपका कूपन “${p.title}” स्वीकृत नहीं हुआ`,
    blocks: [
      `नमस्ते ${p.name},`,
      `आपका कूपन “${p.title}” इस कारण से स्वीकृत नहीं हुआ:`,
      { quote: p.reason },
      'आप किसी भी समय सुधारा हुआ कूपन फिर से भेज सकते हैं।',
    ],
    action: { label: 'अपने कूपन खोलें', url: p.url },
  }),
  'product-approved': (p) => ({
    subject: `आपका उत्पाद “${p.productName}” आपके स्टोर पेज पर है`,
    blocks: [
      `नमस्ते ${p.name},`,
      `आपका उत्पाद “${p.productName}” स्वीकृत हो गया है और अब आपके सार्वजनिक स्टोर पेज पर दिखता है।`,
    ],
    action: { label: 'अपना स्टोर देखें', url: p.url },
  }),
  'product-rejected': (p) => ({
    subject: `आपके उत्पाद “${p.productName}” में बदलाव ज़रूरी हैं`,
    blocks: [
      `नमस्ते ${p.name},`,
      `आपका उत्पाद “${p.productName}” स्वीकृत नहीं हुआ। कारण:`,
      { quote: p.reason },
      'सुझाए गए बदलाव:',
      { quote: p.advisedChanges },
      'बदलाव करके इसे फिर से भेजें।',
    ],
    action: { label: 'अपने उत्पाद खोलें', url: p.url },
  }),
  'newsletter-confirmation': (p) => ({
    subject: 'कृपया न्यूज़लेटर की सदस्यता की पुष्टि करें',
    blocks: [
      'आपने (या आपके पते का उपयोग करने वाले किसी व्यक्ति ने) सबसे अच्छे कूपन और ऑफ़र वाला ऑफ़र्स मार्केटप्लेस न्यूज़लेटर पाने का अनुरोध किया है।',
      'अगर यह आप नहीं थे, तो इस मेल को अनदेखा करें: आपकी सदस्यता नहीं होगी।',
    ],
    action: { label: 'सदस्यता की पुष्टि करें', url: p.confirmUrl },
  }),
  'contact-notice': english['contact-notice'],
  'store-alert': (p) =>
    storeAlert(p, {
      subject:
        p.offers.length + p.more === 1
          ? `${p.storeName} पर नया: ${p.offers[0]?.label}`
          : `${p.storeName} पर ${p.offers.length + p.more} नए ऑफ़र`,
      hello: `नमस्ते ${p.name},`,
      news:
        p.offers.length + p.more === 1
          ? `आपके फ़ॉलो किए गए स्टोर ${p.storeName} पर एक नया ऑफ़र है:`
          : `आपके फ़ॉलो किए गए स्टोर ${p.storeName} पर ${p.offers.length + p.more} नए ऑफ़र हैं:`,
      more: `और ${p.more} ऑफ़र स्टोर पर देखें।`,
      action: `${p.storeName} के सभी ऑफ़र देखें`,
      why: `आपको यह मेल इसलिए मिला है क्योंकि आप ऑफ़र्स मार्केटप्लेस पर ${p.storeName} को फ़ॉलो करते हैं: हर फ़ॉलो किए गए स्टोर के लिए दिन में अधिकतम एक मेल।`,
      stop: `${p.storeName} के अलर्ट बंद करें`,
    }),
  campaign: (p) => campaign(p, 'चुनिंदा ऑफ़र', NEWSLETTER_FOOTER.hi, 'सदस्यता छोड़ें'),
  'earning-updates': (p) =>
    earningUpdates('hi', p, {
      hello: `नमस्ते ${p.name},`,
      subjectTracked: (u) =>
        `${u.storeName} पर आपकी ख़रीदारी ट्रैक हो गई: ${rupeesIn('hi', u.cashbackPaise)} का कैशबैक लंबित`,
      subjectConfirmed: (u) => `आपका ${rupeesIn('hi', u.cashbackPaise)} का कैशबैक कन्फ़र्म हो गया`,
      subjectMany: (n) =>
        plural('hi', n, { one: `आपके कैशबैक की ${n} नई ख़बर`, other: `आपके कैशबैक की ${n} नई ख़बरें` }),
      tracked: (u, by) =>
        `${u.storeName} ने आपकी ${rupeesIn('hi', u.purchasePaise)} की ख़रीदारी ट्रैक कर ली है: आपका ${rupeesIn('hi', u.cashbackPaise)} का कैशबैक लंबित है${by ? ` और ${by} तक कन्फ़र्म होने की उम्मीद है` : ''}।`,
      confirmed: (u) =>
        `${u.storeName} ने आपकी ख़रीदारी कन्फ़र्म कर दी है: आपका ${rupeesIn('hi', u.cashbackPaise)} का कैशबैक अब आपके उपलब्ध बैलेंस में है।`,
      intro: 'आपके कैशबैक में ये बदलाव हुए हैं:',
      timeline: 'इसकी टाइमलाइन देखें',
      withdraw: 'आप इसे "मेरी कमाई" से अपने UPI ID या बैंक खाते में निकाल सकते हैं।',
      action: 'मेरी कमाई देखें',
      why: 'आपकी ख़रीदारी और कैशबैक के बारे में हम आपको दिन में अधिकतम एक मेल भेजते हैं।',
    }),
  'payout-paid': (p) => ({
    subject: `आपका ${rupeesIn('hi', p.amountPaise)} का भुगतान भेज दिया गया`,
    blocks: [
      `नमस्ते ${p.name},`,
      `हमने ${rupeesIn('hi', p.amountPaise)} ${p.destination} पर भेज दिए हैं।`,
      `बैंक रेफ़रेंस: ${p.bankReference}। आपका बैंक इस ट्रांसफ़र के साथ यही रेफ़रेंस दिखाता है।`,
    ],
    action: { label: 'मेरे भुगतान देखें', url: p.earningsUrl },
  }),
  'payout-failed': (p) => ({
    subject: `आपका ${rupeesIn('hi', p.amountPaise)} का भुगतान नहीं हो सका`,
    blocks: [
      `नमस्ते ${p.name},`,
      `आपके ${rupeesIn('hi', p.amountPaise)} के भुगतान का ट्रांसफ़र इस कारण से नहीं हो सका:`,
      { quote: p.reason },
      `${rupeesIn('hi', p.amountPaise)} वापस आपके उपलब्ध बैलेंस में जोड़ दिए गए हैं। अपना UPI ID या बैंक विवरण जाँचें और फिर से भुगतान का अनुरोध करें।`,
    ],
    action: { label: 'मेरी कमाई देखें', url: p.earningsUrl },
  }),
  'referral-bonus': (p) => ({
    subject: `आपको ${rupeesIn('hi', p.amountPaise)} का रेफ़रल बोनस मिला`,
    blocks: [
      `नमस्ते ${p.name},`,
      `आपके रेफ़र किए गए एक दोस्त की पहली ख़रीदारी स्टोर ने कन्फ़र्म कर दी है: आपको ${rupeesIn('hi', p.amountPaise)} का रेफ़रल बोनस मिला है।`,
      'अपने रेफ़रल लिंक से और दोस्तों को आमंत्रित करें और हर एक पर बोनस पाएँ।',
    ],
    action: {
      label: p.referrer === 'user' ? 'मेरी कमाई देखें' : 'मेरा रेफ़रल पेज खोलें',
      url: p.url,
    },
  }),
  'claim-approved': (p) => ({
    subject: `${p.storeName} के लिए आपका कैशबैक दावा मंज़ूर हो गया`,
    blocks: [
      `नमस्ते ${p.name},`,
      `हमने ${p.storeName} के ऑर्डर ${p.orderId} के लिए आपका दावा मंज़ूर कर दिया है: ${rupeesIn('hi', p.cashbackPaise)} का कैशबैक अब आपकी कमाई में पेंडिंग है।`,
      'दूसरे कैशबैक की तरह, स्टोर के ख़रीदारी कन्फ़र्म करने पर यह भी कन्फ़र्म हो जाएगा।',
    ],
    action: { label: 'मेरे दावे देखें', url: p.claimsUrl },
  }),
  'claim-rejected': (p) => ({
    subject: `${p.storeName} के लिए आपका कैशबैक दावा मंज़ूर नहीं हुआ`,
    blocks: [
      `नमस्ते ${p.name},`,
      `हम ${p.storeName} के ऑर्डर ${p.orderId} के लिए आपका दावा इस कारण से मंज़ूर नहीं कर सके:`,
      { quote: p.reason },
      'अगर आपको लगता है कि यह ग़लती है, तो संपर्क पेज से अपने इनवॉइस के साथ हमें लिखें।',
    ],
    action: { label: 'मेरे दावे देखें', url: p.claimsUrl },
  }),
  'grievance-received': (p) => ({
    subject: `आपकी शिकायत ${p.reference} दर्ज हो गई है`,
    blocks: [
      `नमस्ते ${p.name},`,
      `हमने आपकी शिकायत “${p.subject}” संदर्भ संख्या ${p.reference} के साथ दर्ज कर ली है। हमारे शिकायत अधिकारी अधिक से अधिक ${DATES.hi.format(new Date(p.dueAt))} तक आपको मेल से उत्तर देंगे।`,
      'इसके बारे में लिखते समय यह संदर्भ संख्या बताएँ।',
    ],
  }),
  'grievance-answered': (p) => ({
    subject: `आपकी शिकायत ${p.reference} का हमारा उत्तर`,
    blocks: [
      `नमस्ते ${p.name},`,
      `हमारे शिकायत अधिकारी ने आपकी शिकायत “${p.subject}” (${p.reference}) का उत्तर दिया है:`,
      { quote: p.answer },
    ],
  }),
  'account-deletion-confirm': (p) => ({
    subject: 'अपने ऑफ़र्स मार्केटप्लेस खाते को हटाने की पुष्टि करें',
    blocks: [
      `नमस्ते ${p.name},`,
      'आपने अपना ऑफ़र्स मार्केटप्लेस खाता हटाने का अनुरोध किया है। नीचे दिए लिंक से इसकी पुष्टि करें; पुष्टि होने तक कुछ नहीं हटाया जाएगा।',
      `यह लिंक ${p.validForHours} घंटे तक काम करता है। अगर आपने यह अनुरोध नहीं किया, तो इस मेल को अनदेखा करें: आपका खाता वैसा ही रहेगा।`,
    ],
    action: { label: 'हटाने की पुष्टि करें', url: p.confirmUrl },
  }),
  'account-deletion-scheduled': (p) => ({
    subject: 'आपका ऑफ़र्स मार्केटप्लेस खाता हटा दिया जाएगा',
    blocks: [
      `नमस्ते ${p.name},`,
      `आपका खाता ${DATES.hi.format(p.eraseAfter)} को आपके फ़ॉलो, वोट, दावों और मेल के साथ हटा दिया जाएगा। आपको हर जगह से साइन आउट कर दिया गया है।`,
      'कानून जिन रिकॉर्ड को रखने को कहता है (कमाई और भुगतान: राशि, तारीख, संदर्भ) वे एक ऐसे नंबर के तहत रहेंगे जिससे किसी की पहचान नहीं होती।',
      'इरादा बदल गया? नीचे दिए लिंक से रद्द करें, या उस दिन से पहले साइन इन करें।',
    ],
    action: { label: 'मेरा खाता रखें', url: p.cancelUrl },
  }),
};

const telugu: Templates = {
  'user-welcome': (p) => ({
    subject: `ఆఫర్స్ మార్కెట్‌ప్లేస్‌కు స్వాగతం, ${p.name}`,
    blocks: [
      `నమస్కారం ${p.name},`,
      'ఆఫర్స్ మార్కెట్‌ప్లేస్‌లో చేరినందుకు ధన్యవాదాలు. మీకు ఇష్టమైన దుకాణాల కూపన్ కోడ్‌లను చూడండి, వాటి ద్వారా చేసే ప్రతి కొనుగోలుపై క్యాష్‌బ్యాక్ పొందండి.',
      `మీ రెఫరల్ లింక్‌తో మీ స్నేహితులను ఆహ్వానించండి, వారు కొనుగోలు చేసినప్పుడు బోనస్ పొందండి: ${p.referralLink}`,
    ],
    action: { label: 'ఆఫర్లు చూడండి', url: p.siteUrl },
  }),
  'merchant-welcome': (p) => ({
    subject: 'ఆఫర్స్ మార్కెట్‌ప్లేస్ కోసం మీ ఈమెయిల్ చిరునామాను నిర్ధారించండి',
    blocks: [
      `నమస్కారం ${p.name},`,
      'ఆఫర్స్ మార్కెట్‌ప్లేస్‌కు స్వాగతం. మీ కూపన్లు మరియు ఉత్పత్తుల గురించి మిమ్మల్ని సంప్రదించగలిగేలా దయచేసి మీ ఈమెయిల్ చిరునామాను నిర్ధారించండి.',
      plural('te', p.validForHours, {
        one: `ఈ లింక్ ${p.validForHours} గంట వరకు పనిచేస్తుంది.`,
        other: `ఈ లింక్ ${p.validForHours} గంటల వరకు పనిచేస్తుంది.`,
      }),
    ],
    action: { label: 'ఈమెయిల్ చిరునామాను నిర్ధారించండి', url: p.confirmUrl },
  }),
  'password-reset': (p) => ({
    subject: 'మీ ఆఫర్స్ మార్కెట్‌ప్లేస్ పాస్‌వర్డ్‌ను రీసెట్ చేయండి',
    blocks: [
      `నమస్తే ${p.name},`,
      'మీ ఆఫర్స్ మార్కెట్‌ప్లేస్ ఖాతా పాస్‌వర్డ్‌ను రీసెట్ చేయమని ఎవరో అడిగారు. కింది లింక్‌తో కొత్త పాస్‌వర్డ్‌ను ఎంచుకోండి.',
      `ఈ లింక్ ఒక్కసారి మాత్రమే, ${plural('te', p.validForMinutes, { one: `${p.validForMinutes} నిమిషం`, other: `${p.validForMinutes} నిమిషాల` })} పాటు పనిచేస్తుంది. మీరు అడగకపోతే ఈ మెయిల్‌ను పట్టించుకోకండి: మీ పాస్‌వర్డ్ మారదు.`,
    ],
    action: { label: 'కొత్త పాస్‌వర్డ్ ఎంచుకోండి', url: p.resetUrl },
  }),
  'password-changed': (p) => ({
    subject: 'మీ ఆఫర్స్ మార్కెట్‌ప్లేస్ పాస్‌వర్డ్ మార్చబడింది',
    blocks: [
      `నమస్తే ${p.name},`,
      'మీ ఆఫర్స్ మార్కెట్‌ప్లేస్ ఖాతా పాస్‌వర్డ్ ఇప్పుడే మార్చబడింది, మీ ఇతర సెషన్‌ల నుండి సైన్ అవుట్ చేయబడింది.',
      'ఇది మీరు చేయకపోతే, కింది లింక్‌తో ఇప్పుడే కొత్త పాస్‌వర్డ్ ఎంచుకోండి.',
    ],
    action: { label: 'నా పాస్‌వర్డ్ రీసెట్ చేయండి', url: p.forgotUrl },
  }),
  'coupon-approved': (p) => ({
    subject: `మీ కూపన్ “${p.title}” ఇప్పుడు అందుబాటులో ఉంది`,
    blocks: [
      `నమస్కారం ${p.name},`,
      `శుభవార్త: మీ కూపన్ “${p.title}” ఆమోదించబడింది, దాని గడువు తేదీ వరకు కొనుగోలుదారులకు చూపబడుతుంది.`,
    ],
    action: { label: 'మీ కూపన్ చూడండి', url: p.url },
  }),
  'coupon-rejected': (p) => ({
    subject: `మీ కూపన్ “${p.title}” ఆమోదించబడలేదు`,
    blocks: [
      `నమస్కారం ${p.name},`,
      `మీ కూపన్ “${p.title}” ఈ కారణంగా ఆమోదించబడలేదు:`,
      { quote: p.reason },
      'సవరించిన కూపన్‌ను మీరు ఎప్పుడైనా మళ్లీ సమర్పించవచ్చు.',
    ],
    action: { label: 'మీ కూపన్లు తెరవండి', url: p.url },
  }),
  'product-approved': (p) => ({
    subject: `మీ ఉత్పత్తి “${p.productName}” మీ స్టోర్ పేజీలో ఉంది`,
    blocks: [`నమస్కారం ${p.name},`, `మీ ఉత్పత్తి “${p.productName}” ఆమోదించబడింది, ఇప్పుడు మీ పబ్లిక్ స్టోర్ పేజీలో కనిపిస్తుంది.`],
    action: { label: 'మీ స్టోర్ చూడండి', url: p.url },
  }),
  'product-rejected': (p) => ({
    subject: `మీ ఉత్పత్తి “${p.productName}”కు మార్పులు అవసరం`,
    blocks: [
      `నమస్కారం ${p.name},`,
      `మీ ఉత్పత్తి “${p.productName}” ఆమోదించబడలేదు. కారణం:`,
      { quote: p.reason },
      'సూచించిన మార్పులు:',
      { quote: p.advisedChanges },
      'మార్పులు చేసి మళ్లీ సమర్పించండి.',
    ],
    action: { label: 'మీ ఉత్పత్తులు తెరవండి', url: p.url },
  }),
  'newsletter-confirmation': (p) => ({
    subject: 'దయచేసి మీ న్యూస్‌లెటర్ చందాను నిర్ధారించండి',
    blocks: [
      'ఉత్తమ కూపన్లు మరియు ఆఫర్లతో కూడిన ఆఫర్స్ మార్కెట్‌ప్లేస్ న్యూస్‌లెటర్‌ను పొందాలని మీరు (లేదా మీ చిరునామాను ఉపయోగించిన ఎవరో) అభ్యర్థించారు.',
      'అది మీరు కాకపోతే, ఈ మెయిల్‌ను పట్టించుకోకండి: మీకు చందా జరగదు.',
    ],
    action: { label: 'చందాను నిర్ధారించండి', url: p.confirmUrl },
  }),
  'contact-notice': english['contact-notice'],
  'store-alert': (p) =>
    storeAlert(p, {
      subject:
        p.offers.length + p.more === 1
          ? `${p.storeName}‌లో కొత్తది: ${p.offers[0]?.label}`
          : `${p.storeName}‌లో ${p.offers.length + p.more} కొత్త ఆఫర్లు`,
      hello: `నమస్తే ${p.name},`,
      news:
        p.offers.length + p.more === 1
          ? `మీరు అనుసరించే స్టోర్ ${p.storeName}‌లో ఒక కొత్త ఆఫర్ ఉంది:`
          : `మీరు అనుసరించే స్టోర్ ${p.storeName}‌లో ${p.offers.length + p.more} కొత్త ఆఫర్లు ఉన్నాయి:`,
      more: plural('te', p.more, {
        one: `మరో ${p.more} ఆఫర్ స్టోర్‌లో ఉంది.`,
        other: `మరో ${p.more} ఆఫర్లు స్టోర్‌లో ఉన్నాయి.`,
      }),
      action: `${p.storeName} యొక్క అన్ని ఆఫర్లు చూడండి`,
      why: `మీరు ఆఫర్స్ మార్కెట్‌ప్లేస్‌లో ${p.storeName}‌ను అనుసరిస్తున్నందున ఈ మెయిల్ మీకు వచ్చింది: మీరు అనుసరించే ప్రతి స్టోర్‌కు రోజుకు గరిష్ఠంగా ఒక మెయిల్.`,
      stop: `${p.storeName} హెచ్చరికలను ఆపండి`,
    }),
  campaign: (p) => campaign(p, 'ప్రత్యేక ఆఫర్లు', NEWSLETTER_FOOTER.te, 'చందా రద్దు చేయండి'),
  'earning-updates': (p) =>
    earningUpdates('te', p, {
      hello: `నమస్కారం ${p.name},`,
      subjectTracked: (u) =>
        `${u.storeName}‌లో మీ కొనుగోలు ట్రాక్ అయింది: ${rupeesIn('te', u.cashbackPaise)} క్యాష్‌బ్యాక్ పెండింగ్‌లో ఉంది`,
      subjectConfirmed: (u) => `మీ ${rupeesIn('te', u.cashbackPaise)} క్యాష్‌బ్యాక్ నిర్ధారించబడింది`,
      subjectMany: (n) =>
        plural('te', n, {
          one: `మీ క్యాష్‌బ్యాక్‌పై ${n} కొత్త అప్‌డేట్`,
          other: `మీ క్యాష్‌బ్యాక్‌పై ${n} కొత్త అప్‌డేట్‌లు`,
        }),
      tracked: (u, by) =>
        `${u.storeName} మీ ${rupeesIn('te', u.purchasePaise)} కొనుగోలును ట్రాక్ చేసింది: మీ ${rupeesIn('te', u.cashbackPaise)} క్యాష్‌బ్యాక్ పెండింగ్‌లో ఉంది${by ? `, ${by} నాటికి నిర్ధారించబడుతుందని అంచనా` : ''}.`,
      confirmed: (u) =>
        `${u.storeName} మీ కొనుగోలును నిర్ధారించింది: మీ ${rupeesIn('te', u.cashbackPaise)} క్యాష్‌బ్యాక్ ఇప్పుడు మీ అందుబాటు బ్యాలెన్స్‌లో ఉంది.`,
      intro: 'మీ క్యాష్‌బ్యాక్‌లో జరిగిన మార్పులు ఇవి:',
      timeline: 'దీని టైమ్‌లైన్ చూడండి',
      withdraw: '"నా సంపాదన" నుండి దీన్ని మీ UPI ID లేదా బ్యాంక్ ఖాతాకు తీసుకోవచ్చు.',
      action: 'నా సంపాదన చూడండి',
      why: 'మీ కొనుగోళ్లు మరియు క్యాష్‌బ్యాక్ గురించి మేము మీకు రోజుకు గరిష్ఠంగా ఒక మెయిల్ పంపుతాము.',
    }),
  'payout-paid': (p) => ({
    subject: `మీ ${rupeesIn('te', p.amountPaise)} చెల్లింపు పంపబడింది`,
    blocks: [
      `నమస్కారం ${p.name},`,
      `మేము ${rupeesIn('te', p.amountPaise)}ను ${p.destination}కు పంపాము.`,
      `బ్యాంక్ రిఫరెన్స్: ${p.bankReference}. మీ బ్యాంక్ ఈ బదిలీతో ఇదే రిఫరెన్స్‌ను చూపిస్తుంది.`,
    ],
    action: { label: 'నా చెల్లింపులు చూడండి', url: p.earningsUrl },
  }),
  'payout-failed': (p) => ({
    subject: `మీ ${rupeesIn('te', p.amountPaise)} చెల్లింపు జరగలేదు`,
    blocks: [
      `నమస్కారం ${p.name},`,
      `మీ ${rupeesIn('te', p.amountPaise)} చెల్లింపు బదిలీ ఈ కారణంగా విఫలమైంది:`,
      { quote: p.reason },
      `${rupeesIn('te', p.amountPaise)} మీ అందుబాటు బ్యాలెన్స్‌కు తిరిగి జోడించబడింది. మీ UPI ID లేదా బ్యాంక్ వివరాలను సరిచూసుకుని మళ్లీ చెల్లింపు కోరండి.`,
    ],
    action: { label: 'నా సంపాదన చూడండి', url: p.earningsUrl },
  }),
  'referral-bonus': (p) => ({
    subject: `మీకు ${rupeesIn('te', p.amountPaise)} రెఫరల్ బోనస్ వచ్చింది`,
    blocks: [
      `నమస్కారం ${p.name},`,
      `మీరు ఆహ్వానించిన ఒక స్నేహితుని మొదటి కొనుగోలును స్టోర్ నిర్ధారించింది: మీకు ${rupeesIn('te', p.amountPaise)} రెఫరల్ బోనస్ వచ్చింది.`,
      'మీ రెఫరల్ లింక్‌తో మరింత మంది స్నేహితులను ఆహ్వానించి ప్రతి ఒక్కరిపై బోనస్ పొందండి.',
    ],
    action: {
      label: p.referrer === 'user' ? 'నా సంపాదన చూడండి' : 'నా రెఫరల్ పేజీ తెరవండి',
      url: p.url,
    },
  }),
  'claim-approved': (p) => ({
    subject: `${p.storeName} కోసం మీ క్యాష్‌బ్యాక్ క్లెయిమ్ ఆమోదించబడింది`,
    blocks: [
      `నమస్కారం ${p.name},`,
      `${p.storeName}లో ఆర్డర్ ${p.orderId} కోసం మీ క్లెయిమ్‌ను మేము ఆమోదించాము: ${rupeesIn('te', p.cashbackPaise)} క్యాష్‌బ్యాక్ ఇప్పుడు మీ సంపాదనలో పెండింగ్‌లో ఉంది.`,
      'ఇతర క్యాష్‌బ్యాక్ లాగే, స్టోర్ కొనుగోలును నిర్ధారించినప్పుడు ఇది కూడా నిర్ధారించబడుతుంది.',
    ],
    action: { label: 'నా క్లెయిమ్‌లు చూడండి', url: p.claimsUrl },
  }),
  'claim-rejected': (p) => ({
    subject: `${p.storeName} కోసం మీ క్యాష్‌బ్యాక్ క్లెయిమ్ ఆమోదించబడలేదు`,
    blocks: [
      `నమస్కారం ${p.name},`,
      `${p.storeName}లో ఆర్డర్ ${p.orderId} కోసం మీ క్లెయిమ్‌ను ఈ కారణంగా మేము ఆమోదించలేకపోయాము:`,
      { quote: p.reason },
      'ఇది పొరపాటు అని మీకు అనిపిస్తే, మీ ఇన్‌వాయిస్‌తో సంప్రదింపు పేజీ నుండి మాకు రాయండి.',
    ],
    action: { label: 'నా క్లెయిమ్‌లు చూడండి', url: p.claimsUrl },
  }),
  'grievance-received': (p) => ({
    subject: `మీ ఫిర్యాదు ${p.reference} నమోదైంది`,
    blocks: [
      `నమస్కారం ${p.name},`,
      `మీ ఫిర్యాదు “${p.subject}”ను ${p.reference} సూచన సంఖ్యతో నమోదు చేశాము. మా ఫిర్యాదుల అధికారి గరిష్ఠంగా ${DATES.te.format(new Date(p.dueAt))} లోపు మీకు మెయిల్ ద్వారా సమాధానం ఇస్తారు.`,
      'దీని గురించి మాకు రాసేటప్పుడు ఈ సూచన సంఖ్యను పేర్కొనండి.',
    ],
  }),
  'grievance-answered': (p) => ({
    subject: `మీ ఫిర్యాదు ${p.reference}కు మా సమాధానం`,
    blocks: [
      `నమస్కారం ${p.name},`,
      `మా ఫిర్యాదుల అధికారి మీ ఫిర్యాదు “${p.subject}” (${p.reference})కు సమాధానం ఇచ్చారు:`,
      { quote: p.answer },
    ],
  }),
  'account-deletion-confirm': (p) => ({
    subject: 'మీ ఆఫర్స్ మార్కెట్‌ప్లేస్ ఖాతా తొలగింపును నిర్ధారించండి',
    blocks: [
      `నమస్తే ${p.name},`,
      'మీ ఆఫర్స్ మార్కెట్‌ప్లేస్ ఖాతాను తొలగించమని మీరు అడిగారు. కింది లింక్‌తో దాన్ని నిర్ధారించండి; మీరు నిర్ధారించే వరకు ఏదీ తొలగించబడదు.',
      `ఈ లింక్ ${p.validForHours} గంటల పాటు పనిచేస్తుంది. మీరు దీన్ని అడగకపోతే, ఈ మెయిల్‌ను పట్టించుకోకండి: మీ ఖాతా అలాగే ఉంటుంది.`,
    ],
    action: { label: 'తొలగింపును నిర్ధారించండి', url: p.confirmUrl },
  }),
  'account-deletion-scheduled': (p) => ({
    subject: 'మీ ఆఫర్స్ మార్కెట్‌ప్లేస్ ఖాతా తొలగించబడుతుంది',
    blocks: [
      `నమస్తే ${p.name},`,
      `మీ ఖాతా ${DATES.te.format(p.eraseAfter)}న మీ ఫాలోలు, ఓట్లు, క్లెయిమ్‌లు మరియు మెయిల్‌లతో సహా తొలగించబడుతుంది. మీరు అన్ని చోట్లా సైన్ అవుట్ అయ్యారు.`,
      'చట్టం ఉంచమని అడిగే రికార్డులు (సంపాదనలు మరియు చెల్లింపులు: మొత్తాలు, తేదీలు, రిఫరెన్స్‌లు) ఎవరినీ గుర్తించని ఒక సంఖ్య కింద ఉంటాయి.',
      'మనసు మార్చుకున్నారా? కింది లింక్‌తో రద్దు చేయండి, లేదా ఆ రోజుకు ముందే సైన్ ఇన్ చేయండి.',
    ],
    action: { label: 'నా ఖాతాను ఉంచండి', url: p.cancelUrl },
  }),
};

const NEWSLETTER_FOOTER: Record<Language, string> = {
  en: 'You receive this mail because you subscribed to the Offers Marketplace newsletter.',
  hi: 'आपको यह मेल इसलिए मिला है क्योंकि आपने ऑफ़र्स मार्केटप्लेस न्यूज़लेटर की सदस्यता ली है।',
  te: 'మీరు ఆఫర్స్ మార్కెట్‌ప్లేస్ న్యూస్‌లెటర్‌కు చందా చేసినందున ఈ మెయిల్ మీకు వచ్చింది.',
};

const SIGNATURE: Record<Language, string> = {
  en: 'The Offers Marketplace team',
  hi: 'ऑफ़र्स मार्केटप्लेस टीम',
  te: 'ఆఫర్స్ మార్కెట్‌ప్లేస్ బృందం',
};

function campaign(
  p: MailParameters['campaign'],
  featured: string,
  footer: string,
  unsubscribe: string,
): Message {
  return {
    subject: p.subject,
    blocks: [
      ...p.body.split(/\n\s*\n/).map((paragraph) => paragraph.trim()),
      ...(p.coupons.length > 0 ? [featured, { links: p.coupons }] : []),
    ].filter((block) => block !== ''),
    footer: [footer, { links: [{ label: unsubscribe, url: p.unsubscribeUrl }] }],
  };
}

/** Dates in mails as the recipient's language writes them, in India's time zone: 5 February 2027. */
const DATES: Record<Language, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat('en-IN', { dateStyle: 'long', timeZone: 'Asia/Kolkata' }),
  hi: new Intl.DateTimeFormat('hi-IN', { dateStyle: 'long', timeZone: 'Asia/Kolkata' }),
  te: new Intl.DateTimeFormat('te-IN', { dateStyle: 'long', timeZone: 'Asia/Kolkata' }),
};

interface EarningUpdateTexts {
  hello: string;
  subjectTracked(update: EarningUpdate): string;
  subjectConfirmed(update: EarningUpdate): string;
  subjectMany(count: number): string;
  /** A tracked purchase, with the date it is expected to be confirmed by (written out), if known. */
  tracked(update: EarningUpdate, expectedBy: string | null): string;
  confirmed(update: EarningUpdate): string;
  intro: string;
  timeline: string;
  withdraw: string;
  action: string;
  why: string;
}

/** One update is told in a sentence; several are listed, each linking to its earning's timeline. */
function earningUpdates(
  language: Language,
  p: MailParameters['earning-updates'],
  text: EarningUpdateTexts,
): Message {
  const sentence = (update: EarningUpdate) =>
    update.step === 'tracked'
      ? text.tracked(update, update.expectedBy ? DATES[language].format(new Date(update.expectedBy)) : null)
      : text.confirmed(update);
  const withdraw = p.updates.some((update) => update.step === 'confirmed') ? [text.withdraw] : [];
  const [only] = p.updates;
  const blocks: Block[] =
    p.updates.length === 1 && only
      ? [text.hello, sentence(only), { links: [{ label: text.timeline, url: only.url }] }, ...withdraw]
      : [
          text.hello,
          text.intro,
          { links: p.updates.map((update) => ({ label: sentence(update), url: update.url })) },
          ...withdraw,
        ];
  return {
    subject:
      p.updates.length === 1 && only
        ? only.step === 'tracked'
          ? text.subjectTracked(only)
          : text.subjectConfirmed(only)
        : text.subjectMany(p.updates.length),
    blocks,
    action: { label: text.action, url: p.earningsUrl },
    footer: [text.why],
  };
}

interface StoreAlertTexts {
  subject: string;
  hello: string;
  news: string;
  more: string;
  action: string;
  why: string;
  stop: string;
}

function storeAlert(p: MailParameters['store-alert'], text: StoreAlertTexts): Message {
  return {
    subject: text.subject,
    blocks: [text.hello, text.news, { links: p.offers }, ...(p.more > 0 ? [text.more] : [])],
    action: { label: text.action, url: p.storeUrl },
    footer: [text.why, { links: [{ label: text.stop, url: p.unsubscribeUrl }] }],
  };
}

const TEMPLATES: Record<Language, Templates> = { en: english, hi: hindi, te: telugu };

/** The mail in the recipient's language, as plain text and as HTML. */
export function renderMail<T extends MailTemplate>(
  template: T,
  language: Language,
  parameters: MailParameters[T],
): RenderedMail {
  const message = (TEMPLATES[language] ?? english)[template](parameters);
  const signature = template === 'campaign' ? [] : [SIGNATURE[language]];
  return {
    subject: message.subject.replace(/[\r\n]+/g, ' '),
    text: [
      ...message.blocks.map(textBlock),
      ...(message.action ? [`${message.action.label}: ${message.action.url}`] : []),
      ...signature,
      ...(message.footer ? ['--', ...message.footer.map(textBlock)] : []),
    ].join('\n\n'),
    html: htmlDocument(language, message, signature),
  };
}

function textBlock(block: Block): string {
  if (typeof block === 'string') return block;
  if ('quote' in block) return block.quote.replace(/^/gm, '> ');
  return block.links.map((link) => `${link.label}: ${link.url}`).join('\n');
}

function htmlBlock(block: Block): string {
  if (typeof block === 'string') return `<p>${escapeHtml(block).replace(/\n/g, '<br>')}</p>`;
  if ('quote' in block) {
    return `<blockquote style="margin:0 0 16px;padding:8px 12px;border-left:4px solid #e0e0e0;white-space:pre-wrap">${escapeHtml(block.quote)}</blockquote>`;
  }
  const items = block.links.map(
    (link) => `<li><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></li>`,
  );
  return `<ul>${items.join('')}</ul>`;
}

function htmlDocument(language: Language, message: Message, signature: string[]): string {
  const action = message.action
    ? `<p><a href="${escapeHtml(message.action.url)}" style="display:inline-block;padding:10px 18px;background:#b3261e;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(message.action.label)}</a></p>
<p style="font-size:13px;color:#555555">${escapeHtml(message.action.url)}</p>`
    : '';
  const footer = message.footer
    ? `<hr><div style="font-size:12px;color:#555555">${message.footer.map(htmlBlock).join('')}</div>`
    : '';
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(message.subject)}</title></head>
<body style="font-family:Arial,'Noto Sans',sans-serif;font-size:15px;line-height:1.5;color:#1a1a1a;max-width:600px;margin:0 auto;padding:16px">
${message.blocks.map(htmlBlock).join('\n')}
${action}
${signature.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}
${footer}
</body></html>`;
}
