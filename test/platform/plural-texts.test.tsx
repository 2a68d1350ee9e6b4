import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { CLAIM_MESSAGES, countedMessage, LANGUAGES } from '@offers/api/rules';
import { i18nProvider } from '../../web-backoffice/src/i18n/i18nProvider';
import { loadLanguage, loadTexts, textsOf } from '../../web-public/src/i18n';
import { REPO_ROOT } from '../support/browser.js';

/**
 * Counts in the web apps' texts, in English, Hindi and Telugu: the public site's `t` and the
 * back-office's polyglot each pick a text's form by the shared rule (api/src/rules/plurals.ts).
 */

const COUNTS = [0, 1, 2, 5] as const;

describe('the public site’s counts', () => {
  it.each([
    ['en', ['Used 0 times today', 'Used 1 time today', 'Used 2 times today', 'Used 5 times today']],
    ['hi', ['आज 0 बार इस्तेमाल हुआ', 'आज 1 बार इस्तेमाल हुआ', 'आज 2 बार इस्तेमाल हुआ', 'आज 5 बार इस्तेमाल हुआ']],
    ['te', ['ఈరోజు 0 సార్లు వాడారు', 'ఈరోజు 1 సారి వాడారు', 'ఈరోజు 2 సార్లు వాడారు', 'ఈరోజు 5 సార్లు వాడారు']],
  ] as const)('says how often a coupon was used today in %s', async (lang, said) => {
    await loadLanguage(lang);
    const { t } = textsOf(lang);
    expect(COUNTS.map((count) => t('card.usedToday', { count }))).toEqual(said);
  });

  it.each([
    [
      'en',
      ['0 live coupons', '1 live coupon', '2 live coupons', '5 live coupons'],
      ['1 suggestion', '5 suggestions'],
    ],
    ['hi', ['0 चालू कूपन', '1 चालू कूपन', '2 चालू कूपन', '5 चालू कूपन'], ['1 सुझाव', '5 सुझाव']],
    [
      'te',
      ['0 ప్రస్తుత కూపన్‌లు', '1 ప్రస్తుత కూపన్', '2 ప్రస్తుత కూపన్‌లు', '5 ప్రస్తుత కూపన్‌లు'],
      ['1 సూచన', '5 సూచనలు'],
    ],
  ] as const)(
    'counts a store’s live coupons and the suggestions in %s',
    async (lang, coupons, suggestions) => {
      await loadTexts('stores', lang);
      const { t } = textsOf(lang);
      expect(COUNTS.map((count) => t('stores.count', { count }))).toEqual(coupons);
      expect([1, 5].map((count) => t('search.found', { count }))).toEqual(suggestions);
    },
  );

  it('writes every text with plural forms in both forms and each language, the count in each', () => {
    const locales = join(REPO_ROOT, 'web-public', 'src', 'locales');
    const read = (file: string) => JSON.parse(readFileSync(join(locales, file), 'utf8'));
    const pluralTexts = (texts: unknown, path = ''): Array<[string, unknown]> =>
      texts && typeof texts === 'object' && !Array.isArray(texts)
        ? 'one' in texts || 'other' in texts
          ? [[path, texts]]
          : Object.entries(texts).flatMap(([key, value]) => pluralTexts(value, path ? `${path}.${key}` : key))
        : [];
    // The site's texts, the pages' descriptions and the parts only some pages load.
    const least: Record<string, number> = {
      '': 2,
      'descriptions/': 3,
      'account/': 0,
      'stores/': 2,
      'forms/': 0,
    };
    for (const file of Object.keys(least)) {
      const english = pluralTexts(read(`${file}en.json`));
      expect(english.length).toBeGreaterThanOrEqual(least[file]!);
      for (const lang of LANGUAGES) {
        const found = pluralTexts(read(`${file}${lang}.json`));
        expect(found.map(([path]) => path)).toEqual(english.map(([path]) => path));
        for (const [path, forms] of found) {
          expect([lang, path, Object.keys(forms as object)]).toEqual([lang, path, ['one', 'other']]);
          for (const form of Object.values(forms as object)) expect(form).toContain('{{count}}');
        }
      }
    }
  });
});

describe('the API’s messages holding a count', () => {
  it.each([
    ['en', 'after your visit; this visit is older.', 'up to 1 day ', 'up to 30 days '],
    ['hi', 'दावे लेता है; यह विज़िट उससे पुरानी है।', 'के 1 दिन बाद', 'के 30 दिन बाद'],
    ['te', 'క్లెయిమ్‌లు తీసుకుంటుంది; ఈ సందర్శన అంతకంటే పాతది.', 'తర్వాత 1 రోజు వరకు', 'తర్వాత 30 రోజుల వరకు'],
  ] as const)(
    'say a store’s claim window in %s, in the form its days take',
    async (lang, words, one, thirty) => {
      await loadLanguage(lang);
      const { msg } = textsOf(lang);
      const said = [1, 30].map((days) => msg(countedMessage(CLAIM_MESSAGES.tooOld, days)));
      expect(said.every((text) => text.includes(words))).toBe(true);
      expect(said[0]).toContain(one);
      expect(said[1]).toContain(thirty);
    },
  );
});

describe('the back-office’s counts', () => {
  afterAll(() => i18nProvider.changeLocale('en'));

  it.each([
    ['en', ['0 reveals', '1 reveal', '2 reveals', '5 reveals'], '1 waiting'],
    ['hi', ['0 बार कोड देखा गया', '1 बार कोड देखा गया', '2 बार कोड देखे गए', '5 बार कोड देखे गए'], '1 प्रतीक्षा में'],
    ['te', ['0 కోడ్ చూపులు', '1 కోడ్ చూపు', '2 కోడ్ చూపులు', '5 కోడ్ చూపులు'], '1 వేచి ఉంది'],
  ] as const)('takes each count’s form in %s', async (locale, reveals, waiting) => {
    await i18nProvider.changeLocale(locale);
    const counted = (key: string, count: number) =>
      i18nProvider.translate(key, { smart_count: count, count: String(count) });
    expect(COUNTS.map((count) => counted('offers.analytics.counts.reveals', count))).toEqual(reveals);
    expect(counted('offers.analytics.waiting', 1)).toBe(waiting);
  });
});
