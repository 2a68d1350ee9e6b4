import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { preloadPage, Site } from './App';
import { loadLanguage } from './i18n';
import type { PageData } from './page-data';
import { splitLanguage } from './site';

/** The id of the JSON the server put in the page: the API answers it was rendered with. */
export const PAGE_DATA_ID = 'page-data';

const { lang, path } = splitLanguage(window.location.pathname);
const root = document.getElementById('root')!;
const data = JSON.parse(document.getElementById(PAGE_DATA_ID)?.textContent || '{}') as PageData;
const site = (
  <StrictMode>
    <Site data={data} />
  </StrictMode>
);
// The page's language and chunk (with the texts it has in that language) are loaded before
// hydrating, so the first render matches the server's at once (the server already asked the
// browser to preload them).
Promise.all([loadLanguage(lang), preloadPage(path, lang)])
  .catch(() => undefined)
  .then(() => {
    if (root.hasChildNodes()) hydrateRoot(root, site);
    else createRoot(root).render(site);
  });
