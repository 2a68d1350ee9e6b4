/**
 * The API's rules and messages (api/src/rules, dependency-free), plus what the forms of this site
 * need beside them. Imported by relative path, so the site, the API and the tests read one file.
 */
export * from '../../../api/src/rules/index.js';

/**
 * The shape the browser can check while typing; the API's stricter check (class-validator
 * IsEmail) still has the last word and its message is shown when it disagrees.
 */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Contact form (spec §7: name, email, mobile, msg). */
export const CONTACT_FORM = {
  name: { required: 'Name is required.' },
  email: { required: 'Email is required.', invalid: 'Please enter a valid email address.' },
  mobile: { invalid: 'Enter valid 10-digit number.' },
  msg: { required: 'Message is required.' },
  sent: 'Form Submitted',
  failed: 'Failed to submit form.',
} as const;

export const NEWSLETTER_FORM = {
  email: { required: 'Email is required.', invalid: 'Please enter a valid email address.' },
} as const;
