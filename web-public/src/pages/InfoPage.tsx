import { Fragment, type ReactNode } from 'react';
import { Link } from 'wouter';
import { AGE_LIMITS, COMPANY, LEGAL_UPDATED_ON } from '../company';
import {
  ANONYMOUS_CLICK_KEEP_DAYS,
  COUPON_VOTES,
  GRIEVANCE_FORM,
  STORE_ALERTS,
  STORE_FOLLOWS,
} from '../forms/rules';
import { useI18n, usePageTitle } from '../i18n';
import type { InfoKind } from '../routes';
import type { Language } from '../site';
import { loadInfoTexts, useInfoTexts } from './info/texts';
import type { Block, InfoTexts } from './info/types';

/**
 * Loads the texts of the address's language with this page's chunk: the server before rendering,
 * the browser before hydrating, so the page's words are there at once in both.
 */
export function preload(lang: Language): Promise<void> {
  return loadInfoTexts(lang).then(() => undefined);
}

/** A page with this many headings or more (sections, questions) opens with a table of contents. */
const CONTENTS_FROM = 9;

/** What a text's `{{name}}` stands for; an email address is shown as a mail link. */
type Values = Record<string, string | { email: string }>;

function valuesOf(lang: Language, brand: string): Values {
  return {
    brand,
    legalName: COMPANY.legalName,
    registeredOffice: COMPANY.registeredOffice.join(', '),
    courts: COMPANY.courts[lang],
    supportEmail: { email: COMPANY.supportEmail },
    careersEmail: { email: COMPANY.careersEmail },
    grievanceEmail: { email: COMPANY.grievanceOfficer.email },
    adultAge: String(AGE_LIMITS.account),
    childAge: String(AGE_LIMITS.children),
    minVotes: String(COUPON_VOTES.minVotesForRate),
    maxFollows: String(STORE_FOLLOWS.maxPerAccount),
    alertKeepDays: String(STORE_ALERTS.keepDays),
    clickKeepDays: String(ANONYMOUS_CLICK_KEEP_DAYS),
    hours: String(COMPANY.grievanceOfficer.acknowledgeWithinHours),
    days: String(COMPANY.grievanceOfficer.resolveWithinDays),
    grievanceDays: String(GRIEVANCE_FORM.answerDueDays),
  };
}

const INLINE = /\{\{(\w+)\}\}|\[([^\]]+)\]\((\/[^)\s]*)\)/g;

/** A text with its values filled in: mail links for addresses, site links for `[words](/path)`. */
function Rich({ text, values }: { text: string; values: Values }) {
  const parts: ReactNode[] = [];
  // Words and plain values make one text node, as the reader sees them.
  const add = (words: string) => {
    const last = parts.length - 1;
    if (typeof parts[last] === 'string') parts[last] += words;
    else parts.push(words);
  };
  let at = 0;
  for (const match of text.matchAll(INLINE)) {
    const [whole, name, words, href] = match;
    add(text.slice(at, match.index));
    at = match.index + whole.length;
    if (href) {
      parts.push(
        <Link key={at} href={href}>
          {words}
        </Link>,
      );
      continue;
    }
    const value = values[name!];
    if (value === undefined) throw new Error(`The info pages have no value for {{${name}}}`);
    if (typeof value === 'string') add(value);
    else
      parts.push(
        <a key={at} href={`mailto:${value.email}`}>
          {value.email}
        </a>,
      );
  }
  add(text.slice(at));
  return <>{parts}</>;
}

/** A block's key among its siblings: its words, which differ within a section. */
function keyOf(block: Block): string {
  if (typeof block === 'string') return block;
  if ('list' in block) return block.list.join();
  if ('steps' in block) return block.steps.join();
  return 'grievance-officer';
}

function Blocks({ blocks, texts, values }: { blocks: Block[]; texts: InfoTexts; values: Values }) {
  const { lang } = useI18n();
  return blocks.map((block) => {
    const key = keyOf(block);
    if (typeof block === 'string') {
      return (
        <p key={key}>
          <Rich text={block} values={values} />
        </p>
      );
    }
    if ('grievanceOfficer' in block) return <GrievanceOfficer key={key} lang={lang} texts={texts} />;
    const items = 'list' in block ? block.list : block.steps;
    const List = 'list' in block ? 'ul' : 'ol';
    return (
      <List key={key}>
        {items.map((item) => (
          <li key={item}>
            <Rich text={item} values={values} />
          </li>
        ))}
      </List>
    );
  });
}

/** The Grievance Officer's details, as the company's module holds them. */
function GrievanceOfficer({ lang, texts }: { lang: Language; texts: InfoTexts }) {
  const { labels } = texts;
  const officer = COMPANY.grievanceOfficer;
  return (
    <dl className="contact-card">
      <dt>{labels.name}</dt>
      <dd>{officer.name}</dd>
      <dt>{labels.designation}</dt>
      <dd>{officer.designation[lang]}</dd>
      <dt>{labels.email}</dt>
      <dd>
        <a href={`mailto:${officer.email}`}>{officer.email}</a>
      </dd>
      <dt>{labels.postalAddress}</dt>
      <dd>
        <address>
          {officer.postalAddress.map((line, index) => (
            <Fragment key={line}>
              {index > 0 && <br />}
              {line}
            </Fragment>
          ))}
        </address>
      </dd>
      <dt>{labels.responseTime}</dt>
      <dd>
        <Rich
          text={labels.responseTimeValue}
          values={{
            hours: String(officer.acknowledgeWithinHours),
            days: String(officer.resolveWithinDays),
          }}
        />
      </dd>
    </dl>
  );
}

/**
 * The static pages (about, terms, privacy, careers, FAQ): headings in order (the page's title,
 * a heading per section, one per question or role), a table of contents on the long ones.
 */
export default function InfoPage({ page }: { page: InfoKind }) {
  const { t, lang, date } = useI18n();
  const texts = useInfoTexts(lang);
  const content = texts.pages[page];
  usePageTitle(content.title);
  const values = valuesOf(lang, t('brand'));
  const headings = content.sections.reduce(
    (count, section) => count + 1 + (section.subsections?.length ?? 0),
    0,
  );
  const blocks = (list: Block[]) => <Blocks blocks={list} texts={texts} values={values} />;
  return (
    <article className="info-page">
      <h1>{content.title}</h1>
      {content.dated && (
        <p className="info-updated">
          <Rich text={texts.labels.updated} values={{ date: date(LEGAL_UPDATED_ON) }} />
        </p>
      )}
      {blocks(content.intro)}
      {headings >= CONTENTS_FROM && (
        <nav className="info-contents" aria-labelledby="info-contents">
          <h2 id="info-contents">{texts.labels.contents}</h2>
          <ol>
            {content.sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.heading}</a>
                {section.subsections && (
                  <ul>
                    {section.subsections.map((subsection) => (
                      <li key={subsection.id}>
                        <a href={`#${subsection.id}`}>{subsection.heading}</a>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        </nav>
      )}
      {content.sections.map((section) => (
        <section key={section.id}>
          <h2 id={section.id}>{section.heading}</h2>
          {blocks(section.blocks)}
          {section.subsections?.map((subsection) => (
            <div key={subsection.id} className="info-subsection">
              <h3 id={subsection.id}>{subsection.heading}</h3>
              {blocks(subsection.blocks)}
            </div>
          ))}
        </section>
      ))}
    </article>
  );
}
