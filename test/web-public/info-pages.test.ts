import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { AGE_LIMITS, COMPANY } from '../../web-public/src/company.js';
import en from '../../web-public/src/pages/info/en.js';
import hi from '../../web-public/src/pages/info/hi.js';
import te from '../../web-public/src/pages/info/te.js';
import type { Block, InfoTexts } from '../../web-public/src/pages/info/types.js';
import { type ApiApp, startApi } from '../support/api-app.js';
import { launchBrowser, REPO_ROOT, type WebApp } from '../support/browser.js';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';
import { seriousViolations, serveSite, TEST_PUBLIC_URL, visit } from '../support/web-public.js';

/**
 * The static pages (about, terms, privacy, careers, FAQ) in the three languages: whole in the
 * server's HTML with their own title and description, in the address's language; the privacy
 * policy names the Grievance Officer; the FAQ speaks to shoppers; and on a phone they hydrate
 * without an error and pass axe.
 */

const TEXTS: Record<'en' | 'hi' | 'te', InfoTexts> = { en, hi, te };
const LANGUAGES = ['en', 'hi', 'te'] as const;
const PAGES = ['about', 'terms', 'privacy', 'careers', 'faq'] as const;
const BRAND = Object.fromEntries(
  LANGUAGES.map((lang) => [
    lang,
    JSON.parse(readFileSync(join(REPO_ROOT, 'web-public', 'src', 'locales', `${lang}.json`), 'utf8')).brand,
  ]),
) as Record<(typeof LANGUAGES)[number], string>;

let test: TestEnvironment;
let api: ApiApp;
let site: WebApp;

beforeAll(async () => {
  test = await createTestEnvironment('web_public_info_pages');
  api = await startApi(test.environment);
  site = await serveSite({ test, api });
}, 120_000);

afterAll(async () => {
  await site?.close();
  await api?.close();
  await test?.cleanup();
});

/** The words of a block: a paragraph, or each point of a list. */
const wordsOf = (block: Block): string[] =>
  typeof block === 'string' ? [block] : 'list' in block ? block.list : 'steps' in block ? block.steps : [];

/** A page's longest run of words without a value or a link: text that only its language has. */
function opening(lang: (typeof LANGUAGES)[number], page: (typeof PAGES)[number]): string {
  const { intro, sections } = TEXTS[lang].pages[page];
  const blocks = [
    ...intro,
    ...sections.flatMap((section) => [
      ...section.blocks,
      ...(section.subsections ?? []).flatMap((subsection) => subsection.blocks),
    ]),
  ];
  const runs = blocks.flatMap(wordsOf).flatMap((text) => text.split(/\{\{\w+\}\}|\[[^\]]*\]\([^)]*\)/));
  return runs.reduce((longest, run) => (run.trim().length > longest.length ? run.trim() : longest), '');
}

const address = (lang: string, page: string) => `${lang === 'en' ? '' : `/${lang}`}/${page}`;

async function crawl(path: string) {
  const response = await fetch(`${site.url}${path}`, { redirect: 'manual' });
  return { status: response.status, body: await response.text() };
}

const decodeEntities = (html: string) =>
  html.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');

/** What a reader gets of the page's content: its main element's text, tags and comments removed. */
function mainText(html: string): string {
  const main = /<main[^>]*>(.*)<\/main>/s.exec(html)![1]!;
  return decodeEntities(main.replace(/<!--.*?-->/gs, '').replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
}

/** The main element's headings, in document order: level and text. */
function headings(html: string): Array<[number, string]> {
  const main = /<main[^>]*>(.*)<\/main>/s.exec(html)![1]!;
  return [...main.matchAll(/<h([1-6])[^>]*>(.*?)<\/h\1>/gs)].map((match) => [
    Number(match[1]),
    decodeEntities(match[2]!.replace(/<!--.*?-->/gs, '').replace(/<[^>]+>/g, '')),
  ]);
}

function headOf(html: string) {
  const meta = (key: string) =>
    new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)">`).exec(html)?.[1];
  return {
    lang: /<html lang="([^"]+)">/.exec(html)?.[1],
    title: decodeEntities(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? ''),
    description: decodeEntities(meta('description') ?? ''),
    canonical: /<link rel="canonical" href="([^"]+)">/.exec(html)?.[1],
  };
}

describe('the static pages as crawlers see them', () => {
  const cases = LANGUAGES.flatMap((lang) => PAGES.map((page) => [address(lang, page), lang, page] as const));

  it.each(cases)(
    'renders %s whole, in its language, with its own title and description',
    async (path, lang, page) => {
      const texts = TEXTS[lang].pages[page];
      const answer = await crawl(path);
      const head = headOf(answer.body);
      const text = mainText(answer.body);

      expect(answer.status).toBe(200);
      expect(head).toEqual({
        lang,
        title: `${texts.title} · ${BRAND[lang]}`,
        description: texts.description,
        canonical: `${TEST_PUBLIC_URL}${path}`,
      });
      expect(texts.description.length).toBeLessThanOrEqual(160);
      // One h1, then a heading per section (and per question or role), never skipping a level.
      const found = headings(answer.body);
      expect(found[0]).toEqual([1, texts.title]);
      expect(found.filter(([level]) => level === 1)).toHaveLength(1);
      for (let index = 1; index < found.length; index += 1) {
        expect(found[index]![0]).toBeLessThanOrEqual(found[index - 1]![0] + 1);
      }
      const expected = texts.sections.flatMap((section) => [
        [2, section.heading],
        ...(section.subsections ?? []).map((subsection) => [3, subsection.heading]),
      ]);
      expect(found.filter(([level, words]) => level > 1 && words !== TEXTS[lang].labels.contents)).toEqual(
        expected,
      );
      // The words are this language's, not another's.
      expect(text).toContain(opening(lang, page));
      for (const other of LANGUAGES.filter((language) => language !== lang)) {
        expect(text).not.toContain(opening(other, page));
      }
      // The page's texts come with it: the browser is asked to fetch this language's chunk, not another's.
      const preloads = /<script type="application\/json" id="page-data" data-modules="([^"]+)">/
        .exec(answer.body)![1]!
        .split(' ');
      const chunks = await Promise.all(preloads.map(async (file) => (await crawl(file)).body));
      expect(
        chunks.filter((chunk) => chunk.includes(JSON.stringify(texts.description).slice(1, -1))),
      ).toHaveLength(1);
      for (const other of LANGUAGES.filter((language) => language !== lang)) {
        const words = TEXTS[other].pages[page].description;
        expect(chunks.some((chunk) => chunk.includes(JSON.stringify(words).slice(1, -1)))).toBe(false);
      }
    },
  );

  it.each(LANGUAGES)(
    'names the Grievance Officer in the privacy policy (%s), with how to reach them',
    async (lang) => {
      const answer = await crawl(address(lang, 'privacy'));
      const text = mainText(answer.body);
      const officer = COMPANY.grievanceOfficer;

      expect(text).toContain(officer.name);
      expect(text).toContain(officer.designation[lang]);
      expect(answer.body).toContain(`<a href="mailto:${officer.email}">${officer.email}</a>`);
      for (const line of officer.postalAddress) expect(text).toContain(line);
      expect(text).toContain(
        TEXTS[lang].labels.responseTimeValue
          .replace('{{hours}}', String(officer.acknowledgeWithinHours))
          .replace('{{days}}', String(officer.resolveWithinDays)),
      );
      expect(answer.body).toContain('id="grievance-officer"');
      // Children under 13 are kept out, and so is everyone under 18 from accounts.
      expect(text).toContain(String(AGE_LIMITS.children));
      expect(text).toContain(String(AGE_LIMITS.account));
    },
  );

  it.each(LANGUAGES)(
    'asks account holders to be 18 or older in the terms (%s), under Indian law',
    async (lang) => {
      const text = mainText((await crawl(address(lang, 'terms'))).body);
      const accounts = TEXTS[lang].pages.terms.sections.find((section) => section.id === 'accounts')!;

      expect(text).toContain(
        (accounts.blocks[0] as string).replace('{{adultAge}}', String(AGE_LIMITS.account)),
      );
      expect(text).toContain(COMPANY.courts[lang]);
      expect(text).toContain('2019');
    },
  );

  it.each(LANGUAGES)(
    'speaks to shoppers in the FAQ (%s): nothing about slots or other merchant mechanics',
    async (lang) => {
      const answer = await crawl(address(lang, 'faq'));

      // Everything a reader or a crawler reads: the head's words and the page's text.
      const words = decodeEntities(
        answer.body
          .replace(/<(style|script)[^>]*>.*?<\/\1>/gs, ' ')
          .replace(/<meta [^>]*content="([^"]*)"[^>]*>/g, ' $1 ')
          .replace(/<[^>]+>/g, ' '),
      );

      expect(answer.status).toBe(200);
      expect(words).toContain(TEXTS[lang].pages.faq.title);
      expect(words.toLowerCase()).not.toMatch(/slot|स्लॉट|స్లాట్/);
      expect(mainText(answer.body)).toContain(COMPANY.supportEmail);
    },
  );

  it('asks for applications by email on the careers page', async () => {
    const answer = await crawl('/careers');

    expect(answer.body).toContain(`<a href="mailto:${COMPANY.careersEmail}">${COMPANY.careersEmail}</a>`);
    expect(headings(answer.body).filter(([level]) => level === 3).length).toBeGreaterThanOrEqual(3);
  });
});

describe('the static pages’ texts', () => {
  /** What a block is made of, whatever its words: its kind, its values and its links. */
  const shapeOf = (block: Block) => {
    const words = wordsOf(block);
    return {
      kind: typeof block === 'string' ? 'paragraph' : Object.keys(block)[0],
      items: words.length,
      values: words.flatMap((text) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1])).sort(),
      links: words.flatMap((text) => [...text.matchAll(/\]\((\/[^)]*)\)/g)].map((match) => match[1])).sort(),
    };
  };
  const shape = (texts: InfoTexts) =>
    Object.fromEntries(
      PAGES.map((page) => {
        const { intro, sections, dated } = texts.pages[page];
        return [
          page,
          {
            dated,
            intro: intro.map(shapeOf),
            sections: sections.map((section) => ({
              id: section.id,
              blocks: section.blocks.map(shapeOf),
              subsections: section.subsections?.map((subsection) => ({
                id: subsection.id,
                blocks: subsection.blocks.map(shapeOf),
              })),
            })),
          },
        ];
      }),
    );

  it('has the same sections, anchors, values and links in Hindi and Telugu as in English', () => {
    expect(shape(hi)).toEqual(shape(en));
    expect(shape(te)).toEqual(shape(en));
  });

  it('gives every heading of a page its own anchor', () => {
    for (const page of PAGES) {
      const ids = en.pages[page].sections.flatMap((section) => [
        section.id,
        ...(section.subsections ?? []).map((subsection) => subsection.id),
      ]);
      expect({ page, ids: new Set(ids).size }).toEqual({ page, ids: ids.length });
    }
  });
});

describe('the static pages on a phone', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens /hi/privacy and /te/faq at 390x844 without a console error, fits the screen and passes axe', async () => {
    const context = await browser.newContext({ baseURL: site.url, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const findings = [];
    try {
      for (const [path, lang, name] of [
        ['/hi/privacy', 'hi', 'privacy'],
        ['/te/faq', 'te', 'faq'],
      ] as const) {
        const texts = TEXTS[lang].pages[name];
        await visit(page, path);
        await page.getByRole('heading', { level: 1, name: texts.title }).waitFor();
        await page.waitForLoadState('networkidle');
        await expect(page.title()).resolves.toBe(`${texts.title} · ${BRAND[lang]}`);
        await expect(
          page.evaluate('document.documentElement.scrollWidth <= window.innerWidth'),
        ).resolves.toBe(true);
        findings.push({ path, violations: await seriousViolations(page) });
      }

      // The table of contents jumps to a section.
      await visit(page, '/hi/privacy');
      const officer = hi.pages.privacy.sections.find((section) => section.id === 'grievance-officer')!;
      await page
        .getByRole('navigation', { name: hi.labels.contents })
        .getByRole('link', { name: officer.heading })
        .click();
      await page.waitForURL(/\/hi\/privacy#grievance-officer$/);
      await expect(page.getByRole('heading', { level: 2, name: officer.heading }).isVisible()).resolves.toBe(
        true,
      );
      await expect(
        page.evaluate(
          `document.getElementById('grievance-officer').getBoundingClientRect().top < innerHeight`,
        ),
      ).resolves.toBe(true);

      // Reached within the site, a page in another language loads its texts and shows them.
      await visit(page, '/te/faq');
      await page.locator('footer').getByRole('link', { name: te.pages.about.title }).click();
      await page.getByRole('heading', { level: 1, name: te.pages.about.title }).waitFor();
      await page.getByRole('heading', { level: 2, name: te.pages.about.sections[0]!.heading }).waitFor();
      await expect(page.title()).resolves.toBe(`${te.pages.about.title} · ${BRAND.te}`);
      // Another language's texts, not loaded with the page, come when the reader switches to it.
      await page.getByRole('button', { name: 'మెనూ' }).click();
      await page.getByLabel('భాష').selectOption('hi');
      await page.waitForURL(/\/hi\/about$/);
      await page.getByRole('heading', { level: 1, name: hi.pages.about.title }).waitFor();
      await page.getByRole('heading', { level: 2, name: hi.pages.about.sections[0]!.heading }).waitFor();
    } finally {
      await context.close();
    }

    expect(problems).toEqual([]);
    expect(findings.filter((finding) => finding.violations.length > 0)).toEqual([]);
  }, 120_000);
});
