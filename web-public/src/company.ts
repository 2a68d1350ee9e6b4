import { type SiteLanguage as Language, MINIMUM_AGE } from './forms/rules.js';

/**
 * Who runs the site, as its legal pages name it: the company, the addresses people write to, and
 * the Grievance Officer that India's IT (Intermediary Guidelines and Digital Media Ethics Code)
 * Rules 2021 (rule 3(2)) and the Digital Personal Data Protection Act 2023 (sections 8(9) and 13)
 * ask a site to name, with a way to reach them and how soon they answer.
 *
 * DEMO VALUES: the company, the people and the addresses below are made up for the demo
 * marketplace (the mail domain is the site's test domain). Replace them with the registered
 * company's own before the site goes live; every page reads them from here.
 */
export const COMPANY = {
  legalName: 'Offers Marketplace Private Limited',
  registeredOffice: ['3rd Floor, Demo Towers, Madhapur', 'Hyderabad, Telangana 500081', 'India'],
  /** The city whose courts hear disputes under the terms of service. */
  courts: { en: 'Hyderabad', hi: 'हैदराबाद', te: 'హైదరాబాద్' } satisfies Record<Language, string>,
  supportEmail: 'support@offers.example.in',
  careersEmail: 'careers@offers.example.in',
  grievanceOfficer: {
    name: 'Kavya Reddy',
    designation: {
      en: 'Grievance Officer',
      hi: 'शिकायत अधिकारी',
      te: 'ఫిర్యాదుల పరిష్కార అధికారి',
    } satisfies Record<Language, string>,
    email: 'grievance@offers.example.in',
    postalAddress: [
      'Grievance Officer, Offers Marketplace Private Limited',
      '3rd Floor, Demo Towers, Madhapur',
      'Hyderabad, Telangana 500081',
      'India',
    ],
    /** A complaint is acknowledged within this many hours (IT Rules 2021, rule 3(2)(a)). */
    acknowledgeWithinHours: 24,
    /** ... and resolved within this many days of its receipt (the same rule). */
    resolveWithinDays: 15,
  },
} as const;

/** The ages the legal pages set: accounts are for adults; nothing is collected from young children. */
export const AGE_LIMITS = {
  /** The terms of use: only people this old or older may register and hold an account (the API checks it). */
  account: MINIMUM_AGE,
  /** The privacy policy: the site is not meant for children under this age and collects nothing from them. */
  children: 13,
} as const;

/** The day the terms and the privacy policy last changed (India's date), shown at their top. */
export const LEGAL_UPDATED_ON = '2026-11-24';
