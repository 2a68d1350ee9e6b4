/**
 * The registration notice and the consents (India's DPDP Act 2023): which fields the forms ask,
 * what each is for, the notice's version, and the messages of the consents. One source for the
 * API (it records the version with each consent) and both web apps (they show the notice from
 * this list, each field's purpose in the visitor's language keyed by the purpose below).
 */

/**
 * The notice's version, recorded with every consent given or withdrawn under it. A change to the
 * fields or purposes below is a new version (a date), so a consent names what the person was told.
 */
export const PRIVACY_NOTICE_VERSION = '2026-11-29';

/**
 * The version recorded for consents an account had before the notice existed (kept at the
 * migration that introduced consents: see docs/decisions.md § Privacy).
 */
export const BEFORE_NOTICE_VERSION = 'before-notice';

/** Why a field is asked: each key has its text in the web apps' texts (en, hi, te). */
export type NoticePurpose =
  | 'name'
  | 'signIn'
  | 'mobile'
  | 'address'
  | 'password'
  | 'referral'
  | 'business'
  | 'storeAddress'
  | 'storeWebsite'
  | 'merchantEmail'
  | 'merchantMobile'
  | 'userName';

export interface NoticeField<F extends string = string> {
  /** The form's field (and the API's body key). */
  field: F;
  purpose: NoticePurpose;
  required: boolean;
}

/** What the shoppers' registration (web-public `/register`) asks, in the form's order. */
export const SHOPPER_NOTICE_FIELDS = [
  { field: 'userName', purpose: 'name', required: true },
  { field: 'email', purpose: 'signIn', required: true },
  { field: 'password', purpose: 'password', required: true },
  { field: 'mobileNumber', purpose: 'mobile', required: true },
  { field: 'address', purpose: 'address', required: true },
  { field: 'referredBy', purpose: 'referral', required: false },
] as const satisfies ReadonlyArray<NoticeField>;

/** What the merchants' registration (the back-office's register page) asks, in the form's order. */
export const MERCHANT_NOTICE_FIELDS = [
  { field: 'merchantName', purpose: 'business', required: true },
  { field: 'brandName', purpose: 'business', required: true },
  { field: 'industry', purpose: 'business', required: true },
  { field: 'category', purpose: 'business', required: true },
  { field: 'address', purpose: 'storeAddress', required: true },
  { field: 'email', purpose: 'merchantEmail', required: true },
  { field: 'mobile', purpose: 'merchantMobile', required: true },
  { field: 'merchantUrl', purpose: 'storeWebsite', required: true },
  { field: 'userName', purpose: 'userName', required: true },
  { field: 'password', purpose: 'password', required: true },
  { field: 'referredByCode', purpose: 'referral', required: false },
] as const satisfies ReadonlyArray<NoticeField>;

/**
 * The optional consents, each separate and unticked: the newsletter (campaign mails to the
 * newsletter list), store alerts (mails about followed stores' new offers), offers by mail
 * (campaigns that feature offers: see docs/decisions.md § Privacy for how it differs).
 */
export const CONSENT_PURPOSES = ['newsletter', 'store_alerts', 'offers_by_mail'] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];

/** The kinds of person a consent belongs to; merchants receive none of the consented mails. */
export const CONSENT_HOLDERS = ['shopper'] as const;
export type ConsentHolder = (typeof CONSENT_HOLDERS)[number];

/** No account below this age (no verifiable parental consent is collected). */
export const MINIMUM_AGE = 18;

export const AGE_CONFIRMATION = {
  /** Registration without the confirmation is refused (400) and stores nothing. */
  required: `Please confirm that you are ${MINIMUM_AGE} or older.`,
} as const;

export const CONSENTS = {
  purposes: 'Consents are a list of newsletter, store_alerts and offers_by_mail.',
  purpose: 'The consent is one of newsletter, store_alerts or offers_by_mail.',
  given: 'Choose given true (to give the consent) or false (to withdraw it).',
  noAccount: 'This account no longer exists.',
  recordedGiven: 'Consent given.',
  recordedWithdrawn: 'Consent withdrawn.',
} as const;
