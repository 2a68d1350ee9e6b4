/**
 * Personal data: the kinds of data requests the admins' log records, shared by the API and the
 * back-office's log screen.
 */

/** What a person asked of their data: a copy of it, its deletion, or a grievance about it. */
export const DATA_REQUEST_KINDS = ['export', 'deletion', 'grievance'] as const;
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number];

/** Who took a step of a data request: the person, an admin (named by id), or a scheduled job. */
export const DATA_REQUEST_ACTORS = ['person', 'admin', 'system'] as const;
export type DataRequestActor = (typeof DATA_REQUEST_ACTORS)[number];

/**
 * The sections of "Your data", in the order the summary and the export list them. Each owner of
 * personal data describes its own (api/src/privacy/exporters.ts); the web apps name them.
 */
export const PERSON_DATA_SECTIONS = [
  'account',
  'consents',
  'sessions',
  'referrals',
  'follows',
  'votes',
  'clicks',
  'earnings',
  'payouts',
  'claims',
  'newsletter',
  'contactMessages',
  'mails',
  'grievances',
  'dataRequests',
] as const;
export type PersonDataSectionKey = (typeof PERSON_DATA_SECTIONS)[number];

/**
 * Who else received some of a section's data: the affiliate network (or the store itself, for a
 * store's own link) a click-out sent its click id to, and the mail provider that carries mails to
 * the person's address.
 */
export const DATA_RECIPIENTS = ['affiliateNetwork', 'store', 'mailProvider'] as const;
export type DataRecipient = (typeof DATA_RECIPIENTS)[number];

/** How a fact of the summary is shown: as it is, a date, rupees, a count, or a language's name. */
export const DATA_FACT_FORMATS = ['text', 'date', 'money', 'number', 'language'] as const;
export type DataFactFormat = (typeof DATA_FACT_FORMATS)[number];

/** Downloads of a person's data: each builds a whole copy, so a few an hour per account and address. */
export const DATA_EXPORT = {
  perWindow: 5,
  windowSeconds: 3600,
  tooMany: 'You have downloaded your data several times in the last hour. Please try again later.',
  /** The file's name, dated: `my-data-2026-11-29.json`. */
  fileName: (day: string) => `my-data-${day}.json`,
} as const;

/** What a grievance is about: the rights the law gives, or anything else about personal data. */
export const GRIEVANCE_CATEGORIES = ['access', 'correction', 'erasure', 'consent', 'other'] as const;
export type GrievanceCategory = (typeof GRIEVANCE_CATEGORIES)[number];

export const GRIEVANCE_STATES = ['open', 'answered'] as const;
export type GrievanceState = (typeof GRIEVANCE_STATES)[number];

/**
 * The grievance form: its fields' limits and messages, the days within which an answer is due
 * (the Data Protection Rules allow at most 90), and how many one address may file.
 */
export const GRIEVANCE_FORM = {
  answerDueDays: 90,
  name: { required: 'Name is required.', maxLength: 100 },
  email: { required: 'Email is required.', invalid: 'Please enter a valid email address.' },
  category: { invalid: 'Choose what your grievance is about.' },
  subject: { required: 'Subject is required.', maxLength: 200 },
  message: { required: 'Please describe your grievance.', maxLength: 5000 },
  perWindow: 5,
  windowSeconds: 3600,
  tooMany: 'Too many grievances from your network. Please wait an hour and try again.',
  filed: 'Your grievance is recorded. We have mailed you its reference and the date by which we will answer.',
  failed: 'Your grievance could not be sent. Please try again.',
} as const;

export const GRIEVANCE_ANSWER = {
  answer: { required: 'Write the answer to send.', maxLength: 5000 },
  alreadyAnswered: 'This grievance has already been answered.',
  notFound: 'Grievance not found.',
} as const;

/** When the answer to a grievance filed at `filedAt` is due: 90 days later. */
export function grievanceDueAt(filedAt: Date): Date {
  return new Date(filedAt.getTime() + GRIEVANCE_FORM.answerDueDays * 24 * 60 * 60 * 1000);
}

/**
 * Days left until `dueAt`, any part of a day counting as one (90 right after filing, 1 on the last
 * day); once past it, whole days overdue as a negative number, at least -1.
 */
export function daysUntil(dueAt: Date, now: Date = new Date()): number {
  const DAY_MS = 24 * 60 * 60 * 1000;
  const ms = dueAt.getTime() - now.getTime();
  return ms > 0 ? Math.ceil(ms / DAY_MS) : -Math.max(1, Math.floor(-ms / DAY_MS));
}
/** Where a request to delete an account stands: asked, confirmed by mail (erasure waits), or done. */
export const DELETION_STATES = ['awaiting_confirmation', 'scheduled', 'cancelled', 'erased'] as const;
export type DeletionState = (typeof DELETION_STATES)[number];

/**
 * Deleting an account: the confirmation link's life, and every message the person reads, shared by
 * the API, the public site and the back-office (the site translates them by their English text).
 */
export const ACCOUNT_DELETION = {
  /** How long the mailed confirmation link works. */
  confirmValidForHours: 24,
  /** What must be finished first, each refusing the request (409) with what to do. */
  refused: {
    pendingPayout: 'You have a payout on its way. Wait until it is paid (or has failed), then ask again.',
    openClaim: 'You have a missing-cashback claim still open. Wait for its answer, then ask again.',
    unpaidMoney:
      'You have confirmed cashback not yet paid out. Request a payout first, or tick the box to give it up.',
    merchantUnpaidEarnings:
      'Shoppers still have cashback from your store that is not yet paid. Your account can be deleted once it is settled.',
    alreadyAsked: 'Your account is already being deleted.',
  },
  giveUpUnpaidMoney: { invalid: 'giveUpUnpaidMoney must be true or false.' },
  requested: 'We have sent a link to your email address. Open it within 24 hours to confirm the deletion.',
  confirmed: 'Your account is scheduled for deletion. You have been signed out everywhere.',
  cancelled: 'Your account will not be deleted.',
  invalidLink: 'This link is invalid, used or expired.',
  nothingToCancel: 'Your account is not scheduled for deletion.',
} as const;

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

/**
 * How long anonymous click-outs are kept before they become daily counts: the default of the
 * `ANONYMOUS_CLICK_KEEP_DAYS` setting, and the figure the privacy policy states (an operator who
 * sets another one updates the policy with it).
 */
export const ANONYMOUS_CLICK_KEEP_DAYS = 90;
