import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CONTACT_FORM, NEWSLETTER, PASSWORD_RULES, USER_REGISTRATION, USER_SIGN_IN } from '@offers/api/rules';
import {
  serverFieldErrors,
  validateContact,
  validateNewsletter,
  validateProfile,
  validateRegistration,
  validateSignIn,
} from '../../web-public/src/forms/validate.js';
import { legacyTarget } from '../../web-public/src/legacy-routes.js';
import { USER_PASSWORD, userRegistration } from '../support/accounts.js';
import { type ApiApp, startApi } from '../support/api-app.js';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';

/**
 * The public site's form checks: the spec's rules and messages, and the same verdict as the API
 * for the same input, so a form never sends what the API refuses nor refuses what it accepts.
 */

const validRegistration = () => ({ ...userRegistration(), referredBy: '' });

describe('registration form', () => {
  it('accepts a complete registration', () => {
    expect(validateRegistration(validRegistration())).toEqual({});
  });

  it.each([
    ['userName', '', USER_REGISTRATION.userName.required],
    ['userName', 'Abe', USER_REGISTRATION.userName.tooShort],
    ['email', '', USER_REGISTRATION.email.required],
    ['email', 'asha@', USER_REGISTRATION.email.invalid],
    ['password', '', USER_REGISTRATION.password.required],
    ['password', 'short1!A', undefined],
    ['password', 'alllowercase1!', 'Password must contain a capital letter.'],
    ['mobileNumber', '', USER_REGISTRATION.mobileNumber.required],
    ['mobileNumber', '98765', USER_REGISTRATION.mobileNumber.invalid],
    ['mobileNumber', '98765432101', USER_REGISTRATION.mobileNumber.invalid],
    ['mobileNumber', '5876543210', USER_REGISTRATION.mobileNumber.invalid],
    ['mobileNumber', '+91 98765 43210', undefined],
    ['mobileNumber', '09876543210', undefined],
    ['address', '   ', USER_REGISTRATION.address.required],
  ])('%s = %j → %s', (field, value, message) => {
    const errors = validateRegistration({ ...validRegistration(), [field]: value });
    expect(errors[field as keyof typeof errors]).toBe(message);
  });
});

describe('sign-in form', () => {
  it.each([
    [{ emailOrMobile: ' ' }, 'emailOrMobile', USER_SIGN_IN.emailOrMobile.required],
    [{ emailOrMobile: 'nope' }, 'emailOrMobile', USER_SIGN_IN.emailOrMobile.invalid],
    [{ emailOrMobile: 'Asha Rao' }, 'emailOrMobile', USER_SIGN_IN.emailOrMobile.invalid],
    [{ emailOrMobile: '98765' }, 'emailOrMobile', USER_SIGN_IN.emailOrMobile.invalid],
    [{ password: 'abc' }, 'password', USER_SIGN_IN.password.tooShort],
    [{ password: '' }, 'password', USER_SIGN_IN.password.required],
  ])('%j → %s: %s', (change, field, message) => {
    const values = { emailOrMobile: 'asha@example.in', password: 'secret', ...change };
    expect(validateSignIn(values)).toEqual({ [field]: message });
  });

  it.each(['ASHA@Example.in', '9876543210', '+91 98765 43210', '+919876543210', '09876543210'])(
    'accepts %s',
    (emailOrMobile) => {
      expect(validateSignIn({ emailOrMobile, password: 'secret' })).toEqual({});
    },
  );
});

describe('other forms', () => {
  it('contact: name and message required, email valid, mobile 10 digits when given', () => {
    const valid = { name: 'Asha', email: 'asha@example.in', mobile: '', msg: 'Hello' };
    expect(validateContact(valid)).toEqual({});
    expect(validateContact({ ...valid, mobile: '9876543210' })).toEqual({});
    expect(validateContact({ name: ' ', email: 'x', mobile: '123', msg: '' })).toEqual({
      name: CONTACT_FORM.name.required,
      email: CONTACT_FORM.email.invalid,
      mobile: CONTACT_FORM.mobile.invalid,
      msg: CONTACT_FORM.msg.required,
    });
    expect(validateContact({ ...valid, name: 'n'.repeat(101), msg: 'm'.repeat(2001) })).toEqual({
      name: 'Must be at most 100 characters.',
      msg: 'Must be at most 2000 characters.',
    });
  });

  it('profile: the registration rules of the fields it changes', () => {
    expect(validateProfile({ userName: 'Asha Rao', mobileNumber: '9876543210', address: 'Pune' })).toEqual(
      {},
    );
    expect(validateProfile({ userName: 'As', mobileNumber: '1', address: '' })).toEqual({
      userName: USER_REGISTRATION.userName.tooShort,
      mobileNumber: USER_REGISTRATION.mobileNumber.invalid,
      address: USER_REGISTRATION.address.required,
    });
  });

  it('newsletter: an email address', () => {
    expect(validateNewsletter('')).toBe(NEWSLETTER.email.required);
    expect(validateNewsletter('a@b')).toBe(NEWSLETTER.email.invalid);
    expect(validateNewsletter('asha@example.in')).toBeUndefined();
  });

  it("takes each field's first server message", () => {
    expect(
      serverFieldErrors({ email: ['Email already registered.', 'x'], other: ['y'] }, [
        'email',
        'mobileNumber',
      ]),
    ).toEqual({ email: 'Email already registered.' });
  });
});

describe('old addresses', () => {
  it.each([
    ['/userSignIn', '/sign-in'],
    ['/Newest', '/coupons?sort=newest'],
    ['/Fashiquepopularity', '/coupons?sort=popular'],
    ['/faqs', '/faq'],
    ['/Termsofservice', '/terms'],
    ['/AboutUS', '/about'],
    ['/PrivacyPolicy', '/privacy'],
    ['/Bestofferspage', '/offers'],
    ['/topoffers', '/top-offers'],
    ['/MyEarnings', '/account/earnings'],
    ['/Refereluserpage', '/account/referrals'],
    ['/merchantUrl/9', '/store/9'],
  ])('%s → %s', (path, target) => {
    expect(legacyTarget(path)).toBe(target);
  });

  it('leaves unknown addresses alone', () => {
    expect(legacyTarget('/nothing-here')).toBeUndefined();
  });
});

describe('the same verdict as the API', () => {
  let test: TestEnvironment;
  let api: ApiApp;

  beforeAll(async () => {
    test = await createTestEnvironment('web_public_rules');
    api = await startApi(test.environment);
  });

  afterAll(async () => {
    await api?.close();
    await test?.cleanup();
  });

  const cases: Array<[string, Record<string, string>]> = [
    ['a short name', { userName: 'Abe' }],
    ['no email', { email: '' }],
    ['a malformed email', { email: 'asha@@example' }],
    ['a weak password', { password: 'password' }],
    ['a 9-digit mobile', { mobileNumber: '987654321' }],
    ['a mobile starting with 5', { mobileNumber: '5876543210' }],
    ['a mobile with +91', { mobileNumber: '+91 98765 43210' }],
    ['no address', { address: '' }],
    ['everything wrong', { userName: '', email: 'x', password: '', mobileNumber: 'abc', address: '' }],
    ['nothing wrong', {}],
  ];

  it.each(cases)('registration with %s', async (_name, change) => {
    const registration = { ...userRegistration({ password: USER_PASSWORD }), ...change };
    const client = validateRegistration({ ...registration, referredBy: '' });
    const response = await api.http.inject({
      method: 'POST',
      url: '/api/auth/users/register',
      payload: registration,
    });
    if (Object.keys(client).length === 0) {
      expect(response.statusCode).toBe(201);
      return;
    }
    expect(response.statusCode).toBe(400);
    const server = response.json().errors as Record<string, string[]>;
    expect(Object.keys(server).sort()).toEqual(Object.keys(client).sort());
    for (const [field, message] of Object.entries(client)) {
      if (field === 'password' && registration.password) {
        // The API names one broken password rule (class-validator keeps one `matches` message),
        // the form the first: both are rules this password breaks.
        const broken = PASSWORD_RULES.filter((rule) => !rule.test.test(registration.password)).map(
          (r) => r.message,
        );
        expect(broken).toContain(message);
        expect(broken).toEqual(expect.arrayContaining(server[field]));
      } else expect(server[field]).toContain(message);
    }
  });

  const contact = { name: 'Asha Rao', email: 'asha@example.in', mobile: '9876543210', msg: 'Hello' };
  const contactCases: Array<[string, Record<string, string>]> = [
    ['no name', { name: '  ' }],
    ['a long name', { name: 'n'.repeat(101) }],
    ['a malformed email', { email: 'asha@' }],
    ['a 9-digit mobile', { mobile: '987654321' }],
    ['no mobile', { mobile: '' }],
    ['a long message', { msg: 'm'.repeat(2001) }],
    ['everything wrong', { name: '', email: '', mobile: '12', msg: '' }],
    ['nothing wrong', {}],
  ];

  it.each(contactCases)('contact message with %s', async (_name, change) => {
    const form = { ...contact, ...change };
    const client = validateContact(form);
    const response = await api.http.inject({ method: 'POST', url: '/api/contact', payload: form });
    if (Object.keys(client).length === 0) {
      expect(response.statusCode).toBe(201);
      return;
    }
    expect(response.statusCode).toBe(400);
    const server = response.json().errors as Record<string, string[]>;
    expect(Object.keys(server).sort()).toEqual(Object.keys(client).sort());
    for (const [field, message] of Object.entries(client)) expect(server[field]).toContain(message);
  });

  const signInCases: Array<[string, Record<string, string>]> = [
    ['an email', {}],
    ['an email in capitals', { emailOrMobile: 'ASHA.NOBODY@EXAMPLE.IN' }],
    ['a mobile number with +91', { emailOrMobile: '+91 98765 43210' }],
    ['a mobile number with 0', { emailOrMobile: '09876543210' }],
    ['a display name', { emailOrMobile: 'Asha Rao' }],
    ['a short number', { emailOrMobile: '98765' }],
    ['nothing', { emailOrMobile: '' }],
    ['a short password', { password: 'abc' }],
  ];

  it.each(signInCases)('sign-in with %s', async (_name, change) => {
    const form = { emailOrMobile: 'asha.nobody@example.in', password: 'secret', ...change };
    const client = validateSignIn(form);
    const response = await api.http.inject({ method: 'POST', url: '/api/auth/users/login', payload: form });
    if (Object.keys(client).length === 0) {
      // Well formed: the API looks the account up (there is none).
      expect(response.statusCode).toBe(401);
      return;
    }
    expect(response.statusCode).toBe(400);
    const server = response.json().errors as Record<string, string[]>;
    expect(Object.keys(server).sort()).toEqual(Object.keys(client).sort());
    for (const [field, message] of Object.entries(client)) expect(server[field]).toContain(message);
  });
});
