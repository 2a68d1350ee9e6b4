import { describe, expect, it } from '@jest/globals';
import { LANGUAGES, plural, pluralForm } from '@offers/api/rules';
import { renderMail } from '@offers/workers/mail';

/**
 * Counts in English, Hindi and Telugu: one rule (api/src/rules/plurals.ts) picks the form, which
 * the mails take here (the web apps' texts: plural-texts.test.tsx).
 */

const COUNTS = [0, 1, 2, 5] as const;

describe('the plural rule', () => {
  it.each([
    ['en', ['other', 'one', 'other', 'other']],
    ['hi', ['one', 'one', 'other', 'other']],
    ['te', ['other', 'one', 'other', 'other']],
  ] as const)('gives %s its forms for 0, 1, 2 and 5', (language, forms) => {
    expect(COUNTS.map((count) => pluralForm(language, count))).toEqual(forms);
    expect(COUNTS.map((count) => plural(language, count, { one: 'one', other: 'other' }))).toEqual(forms);
  });

  it.each(LANGUAGES)(
    'answers for %s as Intl.PluralRules does, fractions and large numbers too',
    (language) => {
      const rules = new Intl.PluralRules(language);
      const numbers = [0, 0.5, 1, 1.5, 2, 3, 5, 10, 11, 21, 100, 101, 1000, 100_000, 10_000_000, -1, -2];
      for (const n of numbers) expect([n, pluralForm(language, n)]).toEqual([n, rules.select(n)]);
    },
  );
});

describe('the mails’ counts', () => {
  const alert = (more: number) => ({
    name: 'Sita',
    storeName: 'Glow',
    storeUrl: 'https://offers.example.in/store/glow',
    offers: [{ label: 'Flat 10% off', url: 'https://offers.example.in/store/glow#coupon-1-title' }],
    more,
    unsubscribeUrl: 'https://offers.example.in/api/follows/unsubscribe?token=t',
  });

  it.each([
    ['en', ['And 1 more at the store.', 'And 2 more at the store.', 'And 5 more at the store.']],
    ['hi', ['और 1 ऑफ़र स्टोर पर देखें।', 'और 2 ऑफ़र स्टोर पर देखें।', 'और 5 ऑफ़र स्टोर पर देखें।']],
    ['te', ['మరో 1 ఆఫర్ స్టోర్‌లో ఉంది.', 'మరో 2 ఆఫర్లు స్టోర్‌లో ఉన్నాయి.', 'మరో 5 ఆఫర్లు స్టోర్‌లో ఉన్నాయి.']],
  ] as const)('counts the offers a store alert does not list in %s', (language, said) => {
    for (const [index, more] of [1, 2, 5].entries()) {
      expect(renderMail('store-alert', language, alert(more)).text).toContain(said[index]);
    }
    expect(renderMail('store-alert', language, alert(0)).text).not.toMatch(/ 0 /);
  });

  it.each([
    ['en', 1, 'The link works for 1 hour.', 'for 1 minute.'],
    ['en', 5, 'The link works for 5 hours.', 'for 5 minutes.'],
    ['te', 1, 'ఈ లింక్ 1 గంట వరకు పనిచేస్తుంది.', '1 నిమిషం పాటు'],
    ['te', 5, 'ఈ లింక్ 5 గంటల వరకు పనిచేస్తుంది.', '5 నిమిషాల పాటు'],
    ['hi', 1, 'यह लिंक 1 घंटे तक काम करेगा।', '1 मिनट तक'],
    ['hi', 5, 'यह लिंक 5 घंटे तक काम करेगा।', '5 मिनट तक'],
  ] as const)('says how long a link works in %s for %d', (language, count, hours, minutes) => {
    const confirm = renderMail('merchant-welcome', language, {
      name: 'Ravi',
      confirmUrl: 'https://offers.example.in/confirm',
      validForHours: count,
    });
    const reset = renderMail('password-reset', language, {
      name: 'Ravi',
      resetUrl: 'https://offers.example.in/reset',
      validForMinutes: count,
    });
    expect(confirm.text).toContain(hours);
    expect(reset.text).toContain(minutes);
  });
});
