import { text } from 'node:stream/consumers';
import { prerenderToNodeStream } from 'react-dom/static';
import { preloadPage, Site } from './App';
import { loadLanguage } from './i18n';
import type { PageData } from './page-data';
import { splitLanguage } from './site';

export { canonicalAddress, withKnownCategories } from './addresses';
export { LISTING_PAGES } from './listing';
export { loadPageData } from './page-data';
export { PAGE_DATA_ID } from './page-script';
export { isPrivate, matchPage } from './routes';
export { escapeHtml, headFor, scriptJson } from './seo';
export { LANGUAGE_COOKIE, localePath, SITE_LANGUAGES, splitLanguage } from './site';

/**
 * The page's HTML as the browser's first render will be: the whole tree, lazy pages included
 * (prerendering waits for them), in the address's language, with the data it was loaded with.
 */
export async function renderPage(url: string, lang: Parameters<typeof loadLanguage>[0], data: PageData) {
  await Promise.all([loadLanguage(lang), preloadPage(splitLanguage(url.split('?')[0]!).path, lang)]);
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(<Site data={data} ssrPath={url} />, {
    // Never split a boundary out to be revealed by an inline script: the page comes whole.
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError: (error) => {
      errors.push(error);
    },
  });
  // A part that failed would be left to the browser to render: a page is complete or not sent.
  if (errors.length > 0) throw errors[0];
  return text(prelude);
}
