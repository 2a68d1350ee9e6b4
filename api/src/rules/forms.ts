/** Messages every form shares, on the server and in the web apps. */

/** A text field over its length (RequiredText in api/src/infrastructure/http/field-decorators.ts). */
export const textTooLong = (maxLength: number) => `Must be at most ${maxLength} characters.`;
