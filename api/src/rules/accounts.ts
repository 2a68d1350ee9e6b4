/**
 * Limits, patterns and messages of the account forms: one source for the API's validation and
 * the web apps' forms. No dependencies, so both sides can import it.
 */

/**
 * An Indian mobile number as people write it: ten digits starting with 6 to 9, optionally after
 * +91, 91 or a trunk 0, with a space or hyphen allowed between digits ("+91 98765-43210").
 * {@link normaliseMobile} gives the ten digits, which is what is stored and compared.
 */
export const MOBILE_NUMBER = /^(?:(?:\+91|91|0)[\s-]?)?[6-9](?:[\s-]?\d){9}$/;

/** The ten digits of an Indian mobile number written any way {@link MOBILE_NUMBER} accepts; else undefined. */
export function normaliseMobile(text: string): string | undefined {
  const trimmed = text.trim();
  return MOBILE_NUMBER.test(trimmed) ? trimmed.replace(/\D/g, '').slice(-10) : undefined;
}

/** Country calling code prefixed to mobile numbers in WhatsApp links. */
export const WHATSAPP_COUNTRY_CODE = '91';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*';

/** Each password rule with its own message, checked in this order. */
export const PASSWORD_RULES: ReadonlyArray<{ test: RegExp; message: string }> = [
  { test: /^.{8,}$/s, message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters.` },
  { test: /[A-Z]/, message: 'Password must contain a capital letter.' },
  { test: /[a-z]/, message: 'Password must contain a lowercase letter.' },
  { test: /\d/, message: 'Password must contain a digit.' },
  { test: /[!@#$%^&*]/, message: `Password must contain one of ${PASSWORD_SPECIAL_CHARACTERS}.` },
];

export const PASSWORD_MAX_LENGTH = 128;

export const USER_REGISTRATION = {
  userName: { minLength: 4, required: 'Full Name is required.', tooShort: 'Enter at least 4 characters.' },
  email: { required: 'Email is required.', invalid: 'Please enter a valid email address.' },
  password: { required: 'Password is required.' },
  mobileNumber: { required: 'Mobile No is required.', invalid: 'Enter valid 10-digit number.' },
  referredBy: { unknown: 'This referral code does not exist.' },
  address: { required: 'Please enter address.' },
  invalid: 'Please fill all required fields correctly.',
  duplicate: 'User already exists with same email or mobile.',
  emailTaken: 'Email already registered.',
  mobileTaken: 'Mobile already registered.',
  success: 'User Registered Successfully',
} as const;

/**
 * Shoppers sign in with their email or their mobile number (`emailOrMobile`); older clients send
 * it as `email`, with the spec's messages. The display name is not a credential.
 */
export const USER_SIGN_IN = {
  emailOrMobile: {
    required: 'Email or mobile number is required.',
    invalid: 'Enter your email address or your 10-digit mobile number.',
  },
  email: { required: 'Email is required.', invalid: 'Email format is Wrong.' },
  password: {
    minLength: 4,
    required: 'Password is required.',
    tooShort: 'Password must be minimum 4 characters.',
  },
  failed: 'Login failed. Please check your credentials.',
} as const;

export const MERCHANT_REGISTRATION = {
  merchantName: {
    minLength: 3,
    required: 'Merchant Name is required.',
    tooShort: 'Merchant Name must be at least 3 characters.',
  },
  brandName: {
    minLength: 3,
    required: 'Brand Name is required.',
    tooShort: 'Brand Name must be at least 3 characters.',
  },
  industry: { required: 'Industry Name is required.' },
  category: { required: 'Please Enter Category' },
  address: { required: 'Please Enter Valid Address' },
  email: { required: 'Email is required.', invalid: 'Please enter a valid email address.' },
  mobile: { required: 'Mobile No is required', invalid: 'Enter Valid Mobile no' },
  merchantUrl: {
    required: 'Merchant URL is required.',
    invalid: 'Enter a valid website address (http or https).',
  },
  userName: {
    minLength: 3,
    required: 'Username is required.',
    tooShort: 'Username must be at least 3 characters.',
  },
  password: { required: 'Password is required.' },
  referredByCode: { unknown: 'This referral code does not exist.' },
  duplicate: 'Merchant already exists with same email, mobile or username.',
  emailTaken: 'Email already registered.',
  mobileTaken: 'Mobile already registered.',
  userNameTaken: 'Username already taken.',
  success: 'Merchant Registered Successfully',
  failed: 'Merchant Registration Failed',
} as const;

export const MERCHANT_SIGN_IN = {
  userName: {
    minLength: 4,
    required: 'username is required.',
    tooShort: 'username must be at least 4 characters.',
  },
  password: {
    minLength: 4,
    required: 'password is required.',
    tooShort: 'password must be minimum 4 characters.',
  },
  failed: 'Login failed. Please Check the Credentials.',
  success: 'Merchant Logged In Successfully',
} as const;

export const ADMIN_SIGN_IN = {
  username: { required: 'Valid username is required' },
  email: { invalid: 'Please enter a valid email address.' },
  password: { required: 'Password is required' },
  failed: 'Login failed. Please try again.',
} as const;

/**
 * Brute force without locking out the innocent (after Auth0's brute-force protection): a wrong
 * password counts against the pair of account and client address, against the address, and
 * against the account.
 * - `pair`: 10 failures for one account from one address block that pair for 15 minutes;
 * - `address`: 100 failures from one address, whatever the accounts, block the address for an hour
 *   (a carrier's shared address has to fail a hundred times before its shoppers notice);
 * - `account`: failures from many addresses never block the account (that would hand anyone a
 *   lockout button); past 10 in 15 minutes each sign-in of the account waits a little longer,
 *   `slowdownStepMs` per failure up to `slowdownMaxMs`, which makes a distributed guessing attack
 *   slow while the right password still works.
 */
export const SIGN_IN_THROTTLE = {
  pair: { maxFailures: 10, windowMinutes: 15 },
  address: { maxFailures: 100, windowMinutes: 60 },
  account: { slowdownAfter: 10, windowMinutes: 15, slowdownStepMs: 200, slowdownMaxMs: 3000 },
  /** How long failures are kept: the longest window above. */
  keepMinutes: 60,
  message: 'Too many failed sign-in attempts. Please try again in 15 minutes.',
} as const;

/** Accepted registrations per client address and hour (users and merchants together). */
export const REGISTRATION_LIMIT = {
  perWindow: 10,
  windowSeconds: 3600,
  message: 'Too many registrations from your network. Please try again in an hour.',
} as const;

export const PASSWORD_RULES_TEXT = `At least ${PASSWORD_MIN_LENGTH} characters with a capital letter, a lowercase letter, a digit and one of ${PASSWORD_SPECIAL_CHARACTERS}.`;

export const PASSWORD_CHANGE = {
  currentPassword: {
    required: 'Current password is required.',
    wrong: 'Your current password is not correct.',
  },
  newPassword: { required: 'New password is required.' },
  changed: 'Your password has been changed.',
} as const;

/** Roles that may recover a password by mail (admins are managed by other admins). */
export const RECOVERABLE_ROLES = ['user', 'merchant'] as const;
export type RecoverableRole = (typeof RECOVERABLE_ROLES)[number];

export const PASSWORD_RESET = {
  validForMinutes: 30,
  /** Recovery mails per account (email and role) and hour, whether or not the account exists. */
  perWindow: 3,
  windowSeconds: 3600,
  email: { required: 'Email is required.', invalid: 'Please enter a valid email address.' },
  role: { invalid: 'Choose user or merchant.' },
  token: { required: 'The reset link is missing its token.' },
  password: { required: 'Password is required.' },
  accepted: 'If an account with this email exists, we have sent it a link to reset the password.',
  tooMany: 'Too many reset requests for this account. Please try again in an hour.',
  invalid: 'This password reset link is invalid, used or expired. Please ask for a new one.',
  done: 'Your password has been reset. Please sign in with the new password.',
} as const;

export const SESSIONS = {
  /** A session unused this long ends (`SESSION_IDLE_HOURS`). */
  defaultIdleHours: 24,
  signedOutEverywhere: 'You have been signed out everywhere.',
} as const;

export const EMAIL_CONFIRMATION = {
  validForHours: 48,
  confirmed: 'Your email address is confirmed.',
  invalid: 'This confirmation link is invalid or has expired.',
} as const;

/** Field lengths the database enforces too. */
export const TEXT_LIMITS = { name: 100, email: 254, address: 500, url: 2048, shortText: 100 } as const;

/** The code a registration is credited to when nobody referred it. */
export const HOUSE_REFERRAL_CODE = 'OFFERS';
/** Referral codes: short, readable aloud, without look-alike characters (0/O, 1/I/L). */
export const REFERRAL_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const REFERRAL_CODE_LENGTH = 8;
