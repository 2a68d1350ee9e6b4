/**
 * The API's rules and messages (api/src/rules, dependency-free), plus what the forms of this site
 * need beside them. Imported by relative path, so the site, the API and the tests read one file.
 */
export * from '@offers/api/rules';

/**
 * The shape the browser can check while typing; the API's stricter check (class-validator
 * IsEmail) still has the last word and its message is shown when it disagrees.
 */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** What the contact page says when the message could not be delivered at all (no answer, 5xx). */
export const CONTACT_PAGE = { failed: 'Failed to submit form.' } as const;
