import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GRIEVANCE_FORM } from '@offers/api/rules';
import type { Browser, Page } from 'playwright-core';
import { registerAndSignInUser, type Session } from '../support/accounts.js';
import { inContext, launchBrowser, step, type WebApp } from '../support/browser.js';
import { clickOutDaysAgo } from '../support/claims.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { type CashbackShop, cashbackShopWithStore, confirmedCashback } from '../support/payouts.js';
import { seriousViolations, serveSite, visit } from '../support/web-public.js';

/**
 * "Your data" in the account area and its JSON download, and the grievance form, on a phone in
 * English, Hindi and Telugu: every section named in the page's language, with whom data was
 * shared and where to correct it; the form's messages and its acknowledgement with the reference.
 */
const BROWSER_TEST_MS = 120_000;
const PHONE = { width: 390, height: 844 };

let market: Marketplace;
let shop: CashbackShop;
let site: WebApp;
let browser: Browser;
let shopper: Session;
let email: string;

beforeAll(async () => {
  market = await startMarketplace('web_public_your_data');
  shop = await cashbackShopWithStore(market, 'Mango pickle 10% off', {
    name: 'Amma Pickles',
    address: 'Guntur',
  });
  const registered = await registerAndSignInUser(market.api.baseUrl, {
    userName: 'Lakshmi Devi',
    address: '4-12 Temple Street, Guntur',
  });
  shopper = registered.session;
  email = registered.registration.email as string;
  const headers = { ...shopper.bearer, 'x-forwarded-for': '10.94.0.1' };
  const follow = await market.api.http.inject({
    method: 'POST',
    url: '/api/me/follows',
    headers,
    payload: { merchantId: shop.merchant.id },
  });
  if (follow.statusCode !== 201) throw new Error(`not followed: ${follow.body}`);
  await clickOutDaysAgo(market, shop.couponId, headers, 1);
  await confirmedCashback(market, shop, shopper, '120');
  site = await serveSite(market);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

async function onPhone(name: string, steps: (page: Page) => Promise<void>, signedIn = true) {
  const context = await browser.newContext({
    baseURL: site.url,
    viewport: PHONE,
    isMobile: true,
    acceptDownloads: true,
  });
  if (signedIn)
    await context.addCookies(
      shopper.cookie.split('; ').map((pair) => {
        const [cookieName, ...rest] = pair.split('=');
        return { name: cookieName!, value: rest.join('='), url: site.url };
      }),
    );
  await inContext(context, name, steps);
}

const expectAccessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

/** Nothing on the page is wider than the window (no sideways scrolling on a phone). */
const fitsTheWidth = async (page: Page) => {
  const wide = await page.evaluate(`[...document.querySelectorAll('main *')]
    .filter((element) => element.getBoundingClientRect().right > ${PHONE.width} + 1)
    .map((element) => element.tagName + '.' + element.className + ' ' + Math.round(element.getBoundingClientRect().right))`);
  expect(wide).toEqual([]);
};

const TEXTS = {
  en: {
    prefix: '',
    title: 'Your data',
    follows: 'Followed stores',
    clicks: 'Visits to stores',
    earnings: 'Earnings',
    sharedStore: 'The store Amma Pickles',
    correct: 'Correct it in your profile',
    download: 'Download my data (JSON)',
    grievanceTitle: 'File a grievance',
    send: 'Send grievance',
    category: 'What is it about?',
    categoryProblem: GRIEVANCE_FORM.category.invalid,
    categoryChoice: 'Correcting my data',
    filed: /^Recorded under the reference GR-[A-Z2-9]{8}\. Our answer is due by .+\.$/,
  },
  hi: {
    prefix: '/hi',
    title: 'आपका डेटा',
    follows: 'फ़ॉलो किए गए स्टोर',
    clicks: 'स्टोरों पर विज़िट',
    earnings: 'कमाई',
    sharedStore: 'स्टोर Amma Pickles',
    correct: 'अपनी प्रोफ़ाइल में सुधारें',
    download: 'मेरा डेटा डाउनलोड करें (JSON)',
    grievanceTitle: 'शिकायत दर्ज करें',
    send: 'शिकायत भेजें',
    category: 'यह किस बारे में है?',
    categoryProblem: 'चुनें कि आपकी शिकायत किस बारे में है।',
    categoryChoice: 'अपना डेटा सुधारना',
    filed: /^संदर्भ संख्या GR-[A-Z2-9]{8} के साथ दर्ज हो गई। हमारा उत्तर .+ तक आना है।$/,
  },
  te: {
    prefix: '/te',
    title: 'మీ డేటా',
    follows: 'అనుసరిస్తున్న స్టోర్లు',
    clicks: 'స్టోర్ల సందర్శనలు',
    earnings: 'సంపాదన',
    sharedStore: 'స్టోర్ Amma Pickles',
    correct: 'మీ ప్రొఫైల్‌లో సరిచేయండి',
    download: 'నా డేటాను డౌన్‌లోడ్ చేయండి (JSON)',
    grievanceTitle: 'ఫిర్యాదు నమోదు చేయండి',
    send: 'ఫిర్యాదు పంపండి',
    category: 'ఇది దేని గురించి?',
    categoryProblem: 'మీ ఫిర్యాదు దేని గురించో ఎంచుకోండి.',
    categoryChoice: 'నా డేటాను సరిచేయడం',
    filed: /^GR-[A-Z2-9]{8} సూచన సంఖ్యతో నమోదైంది\. మా సమాధానం .+ లోపు రావాలి\.$/,
  },
} as const;

describe('your data on a phone', () => {
  it.each(['en', 'hi', 'te'] as const)(
    'shows every section in %s, links to the profile, and downloads the JSON copy',
    async (lang) => {
      const said = TEXTS[lang];
      await onPhone(`your-data-${lang}`, async (page) => {
        await step(page, `your-data-${lang}-summary`, async () => {
          await visit(page, `${said.prefix}/account/data`);
          await page.getByRole('heading', { name: said.title, level: 1 }).waitFor();
          for (const section of [said.follows, said.clicks, said.earnings])
            await page.getByRole('heading', { name: new RegExp(`^${section}`), level: 2 }).waitFor();
          await page.getByText('Amma Pickles', { exact: true }).first().waitFor();
          await page.getByText(email, { exact: true }).waitFor();
          await page.getByText(new RegExp(`^${said.sharedStore}`)).waitFor();
          await expect(page.getByRole('link', { name: said.correct }).getAttribute('href')).resolves.toBe(
            `${said.prefix}/account`,
          );
          await expectAccessible(page);
          await fitsTheWidth(page);
        });

        await step(page, `your-data-${lang}-download`, async () => {
          const [download] = await Promise.all([
            page.waitForEvent('download'),
            page.getByRole('link', { name: said.download }).click(),
          ]);
          expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
          const exported = JSON.parse(await readFile((await download.path())!, 'utf8'));
          const account = exported.sections.find(
            (section: { section: string }) => section.section === 'account',
          );
          expect(account.records[0]).toEqual(expect.objectContaining({ email, userName: 'Lakshmi Devi' }));
        });
      });
    },
    BROWSER_TEST_MS,
  );
});

describe('the grievance form on a phone', () => {
  it.each(['en', 'hi', 'te'] as const)(
    'in %s, says what is missing, then records the grievance and shows its reference',
    async (lang) => {
      const said = TEXTS[lang];
      await onPhone(
        `grievance-${lang}`,
        async (page) => {
          await step(page, `grievance-${lang}-errors`, async () => {
            await visit(page, `${said.prefix}/grievance`);
            await page.getByRole('heading', { name: said.grievanceTitle, level: 1 }).waitFor();
            await page.getByRole('button', { name: said.send }).click();
            await page.getByText(said.categoryProblem).waitFor();
            await expect(page.getByLabel(said.category).getAttribute('aria-invalid')).resolves.toBe('true');
            await expectAccessible(page);
            await fitsTheWidth(page);
          });

          await step(page, `grievance-${lang}-filed`, async () => {
            await page.locator('#grievance-name').fill('Ravi Kumar');
            await page.locator('#grievance-email').fill(`ravi.${lang}@example.in`);
            await page.getByLabel(said.category).selectOption({ label: said.categoryChoice });
            await page.locator('#grievance-subject').fill('My old address still shows');
            await page
              .locator('#grievance-message')
              .fill('I changed my address last week but the old one is shown.');
            await page.getByRole('button', { name: said.send }).click();
            await page.getByText(said.filed).waitFor();
            await expectAccessible(page);
            await fitsTheWidth(page);
          });
        },
        false,
      );
      const [row] = await market.api.dataSource.query(
        'SELECT category, language, person_id FROM grievances WHERE email = $1',
        [`ravi.${lang}@example.in`],
      );
      expect(row).toEqual({ category: 'correction', language: lang, person_id: null });
    },
    BROWSER_TEST_MS,
  );

  it(
    'is linked from the footer and the privacy policy',
    async () => {
      await onPhone(
        'grievance-links',
        async (page) => {
          await visit(page, '/privacy');
          await expect(
            page.getByRole('main').getByRole('link', { name: 'grievance form' }).getAttribute('href'),
          ).resolves.toBe('/grievance');
          await expect(
            page.getByRole('contentinfo').getByRole('link', { name: 'Grievances' }).getAttribute('href'),
          ).resolves.toBe('/grievance');
        },
        false,
      );
    },
    BROWSER_TEST_MS,
  );
});
