import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { USER_REGISTRATION, USER_SIGN_IN } from '@offers/api/rules';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { registerAndSignInUser, USER_PASSWORD, uniqueContact } from '../support/accounts.js';
import { inContext, launchBrowser, type WebApp } from '../support/browser.js';
import { type Marketplace, startMarketplace } from '../support/marketplace.js';
import { eventually } from '../support/test-environment.js';
import { seriousViolations, serveSite, visit } from '../support/web-public.js';

/**
 * On a phone, in English and Hindi: a shopper signs in with the email or the mobile number (not
 * the display name), and a referral link with a code nobody has opens the registration with that
 * code in a field the shopper can correct or clear, rather than a form that cannot be sent.
 */
const BROWSER_TEST_MS = 120_000;
const PHONE = { width: 390, height: 844 };

let market: Marketplace;
let site: WebApp;
let browser: Browser;

beforeAll(async () => {
  market = await startMarketplace('web_public_accounts');
  site = await serveSite(market);
  browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await market?.close();
});

/** Runs the steps as a fresh visitor on a phone; on failure keeps a screenshot under test/artifacts/. */
async function onPhone(name: string, steps: (page: Page, context: BrowserContext) => Promise<void>) {
  const context = await browser.newContext({ baseURL: site.url, viewport: PHONE, isMobile: true });
  await inContext(context, name, steps);
}

const expectAccessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

/** The texts of each language the steps look for. */
const TEXTS = {
  en: {
    emailOrMobile: 'Email or mobile number',
    password: 'Password',
    signIn: 'Sign in',
    invalid: USER_SIGN_IN.emailOrMobile.invalid,
    referredBy: 'Referred By',
    unknownCode: USER_REGISTRATION.referredBy.unknown,
    fixHint: 'Check the code with the friend who sent the link, or clear it to register without one.',
    fullName: 'Full Name',
    email: 'Email',
    mobile: 'Mobile No',
    address: 'Address',
    submit: 'Submit',
    registered: USER_REGISTRATION.success,
    adult: 'I am 18 or older.',
  },
  hi: {
    emailOrMobile: 'ईमेल या मोबाइल नंबर',
    password: 'पासवर्ड',
    signIn: 'साइन इन',
    invalid: 'अपना ईमेल पता या 10 अंकों का मोबाइल नंबर लिखें।',
    referredBy: 'रेफ़र करने वाले का कोड',
    unknownCode: 'यह रेफ़रल कोड मौजूद नहीं है।',
    fixHint: 'लिंक भेजने वाले दोस्त से कोड की जाँच करें, या इसे मिटाकर बिना कोड के रजिस्टर करें।',
    fullName: 'पूरा नाम',
    email: 'ईमेल',
    mobile: 'मोबाइल नंबर',
    address: 'पता',
    submit: 'जमा करें',
    registered: 'उपयोगकर्ता सफलतापूर्वक रजिस्टर हुआ',
    adult: 'मेरी उम्र 18 वर्ष या उससे अधिक है।',
  },
} as const;

type Language = keyof typeof TEXTS;
const prefix = (language: Language) => (language === 'en' ? '' : `/${language}`);

async function signIn(page: Page, language: Language, emailOrMobile: string) {
  const text = TEXTS[language];
  await page.getByLabel(text.emailOrMobile).fill(emailOrMobile);
  await page.getByLabel(new RegExp(`^${text.password}`)).fill(USER_PASSWORD);
  await page.getByRole('button', { name: text.signIn, exact: true }).click();
}

describe('signing in on a phone', () => {
  it.each<[Language, (registration: { email: string; mobileNumber: string }) => string]>([
    ['en', (registration) => registration.email.toUpperCase()],
    [
      'hi',
      (registration) => `+91 ${registration.mobileNumber.slice(0, 5)} ${registration.mobileNumber.slice(5)}`,
    ],
  ])(
    '%s: one field for the email or mobile number; the display name is refused',
    (language, login) =>
      onPhone(`sign-in-${language}`, async (page) => {
        const text = TEXTS[language];
        const { registration } = await registerAndSignInUser(market.api.baseUrl, { userName: 'Kavya Menon' });

        await visit(page, `${prefix(language)}/sign-in`);
        const field = page.getByLabel(text.emailOrMobile);
        await expect(field.getAttribute('autocomplete')).resolves.toBe('username');
        await expectAccessible(page);

        // The name a shopper goes by signs nobody in: the form says what it takes instead.
        await field.fill(registration.userName);
        await field.blur();
        await page.getByText(text.invalid).waitFor();
        await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
        await expectAccessible(page);

        await signIn(page, language, login(registration));
        await page.waitForURL(new RegExp(`${prefix(language)}/account$`));
        // The profile of the account signed in, whichever way it was named.
        const shownName = page.getByLabel(text.fullName);
        await eventually(async () => (await shownName.inputValue()) === registration.userName, 'the profile');
      }),
    BROWSER_TEST_MS,
  );
});

describe('a referral link with a code nobody has', () => {
  it(
    'en: shows the code in an editable field with its message; cleared, the shopper registers',
    () =>
      onPhone('referral-unknown-en', async (page) => {
        const text = TEXTS.en;
        await visit(page, '/register?ref=NOPE');
        const code = page.getByLabel(text.referredBy);
        await page.getByText(text.unknownCode).waitFor();
        await page.getByText(text.fixHint).waitFor();
        await expect(code.inputValue()).resolves.toBe('NOPE');
        await expect(code.isEditable()).resolves.toBe(true);
        await expect(code.getAttribute('aria-invalid')).resolves.toBe('true');
        await expectAccessible(page);

        const { email, mobile } = await fillRegistration(page, 'en');
        await code.fill('');
        await page.getByRole('button', { name: text.submit }).click();
        await page.waitForURL(/\/sign-in\?registered=1$/);
        await page.getByText(text.registered).waitFor();

        const [user] = await market.api.dataSource.query(
          'SELECT referred_by FROM users WHERE lower(email) = lower($1)',
          [email],
        );
        expect(user.referred_by).toBe('OFFERS');
        // Signed in with the number just registered, written as people write it.
        await signIn(page, 'en', `0${mobile}`);
        await page.waitForURL(/\/account$/);
      }),
    BROWSER_TEST_MS,
  );

  it(
    "hi: the same in Hindi; corrected to a friend's code, the friend is credited",
    () =>
      onPhone('referral-unknown-hi', async (page) => {
        const text = TEXTS.hi;
        const { session: friend } = await registerAndSignInUser(market.api.baseUrl);
        const [{ referral_code: friendCode }] = await market.api.dataSource.query(
          'SELECT referral_code FROM users WHERE id = $1',
          [friend.id],
        );

        await visit(page, `/hi/register?ref=${friendCode.slice(0, 6)}`);
        const code = page.getByLabel(text.referredBy);
        await page.getByText(text.unknownCode).waitFor();
        await page.getByText(text.fixHint).waitFor();
        await expect(code.inputValue()).resolves.toBe(friendCode.slice(0, 6));
        await expect(code.isEditable()).resolves.toBe(true);
        await expectAccessible(page);

        const { email } = await fillRegistration(page, 'hi');
        await code.fill(friendCode.toLowerCase());
        // The field's message goes once the code changes.
        await expect(page.getByText(text.unknownCode).count()).resolves.toBe(0);
        await page.getByRole('button', { name: text.submit }).click();
        await page.waitForURL(/\/hi\/sign-in\?registered=1$/);
        await page.getByText(text.registered).waitFor();

        const [user] = await market.api.dataSource.query(
          'SELECT referred_by FROM users WHERE lower(email) = lower($1)',
          [email],
        );
        expect(user.referred_by).toBe(friendCode);
      }),
    BROWSER_TEST_MS,
  );
});

async function fillRegistration(page: Page, language: Language) {
  const text = TEXTS[language];
  const { email, mobile } = uniqueContact();
  await page.getByLabel(text.fullName).fill('Meera Iyer');
  await page.getByRole('textbox', { name: text.email, exact: true }).fill(email);
  await page.getByLabel(new RegExp(`^${text.password}`)).fill(USER_PASSWORD);
  await page.getByLabel(text.mobile).fill(`+91${mobile}`);
  await page.getByRole('textbox', { name: text.address, exact: true }).fill('7 Banjara Hills, Hyderabad');
  await page.getByLabel(text.adult).check();
  return { email, mobile };
}
