import type { InfoKind } from '../../routes.js';

/**
 * The static pages' texts in one language. They live in a module per language that only the
 * info pages load (`en.ts`, `hi.ts`, `te.ts`), not in the locale files every page loads.
 *
 * In a text, `{{name}}` is replaced by one of the page's values (the company's details, the site's
 * limits; an email address becomes a mail link) and `[words](/path)` is a link within the site, in
 * the page's language.
 */
export type Block =
  /** A paragraph. */
  | string
  /** A list of points. */
  | { list: string[] }
  /** Steps to follow in order. */
  | { steps: string[] }
  /** The Grievance Officer's details, from the company's module. */
  | { grievanceOfficer: true };

export interface Subsection {
  /** The heading's anchor: the same in every language, so `#anchor` links work in all three. */
  id: string;
  heading: string;
  blocks: Block[];
}

export interface Section extends Subsection {
  /** Questions of the FAQ, roles of the careers page: each under its own smaller heading. */
  subsections?: Subsection[];
}

export interface InfoPageText {
  /** The page's heading, its tab's title and its title in search results. */
  title: string;
  /** The meta description: what search results show under the title (at most 160 characters). */
  description: string;
  /** Shows the date the page last changed (the terms and the privacy policy). */
  dated?: boolean;
  intro: Block[];
  sections: Section[];
}

export interface InfoTexts {
  pages: Record<InfoKind, InfoPageText>;
  labels: {
    /** The heading of a long page's table of contents. */
    contents: string;
    /** `{{date}}`: the day the page last changed. */
    updated: string;
    name: string;
    designation: string;
    email: string;
    postalAddress: string;
    responseTime: string;
    /** `{{hours}}` and `{{days}}`: how soon a complaint is acknowledged and resolved. */
    responseTimeValue: string;
  };
}
