import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { preloadPage, Site } from './App';
import { loadLanguage } from './i18n';
import type { PageData } from './page-data';
import { PAGE_DATA_ID } from './page-script';
import { splitLanguage } from './site';

const { lang, path } = splitLanguage(window.location.pathname);
const root = document.getElementById('root')!;
const data = JSON.parse(document.getElementById(PAGE_DATA_ID)?.textContent || '{}') as PageData;
const site = (
  <StrictMode>
    <Site data={data} />
  </StrictMode>
);
// The page's language and chunk (with the texts it has in that language) are loaded before
// hydrating, so the first render matches the server's at once (the browser asked for them with
// the app, from the page's list).
Promise.all([loadLanguage(lang), preloadPage(path, lang)])
  .catch(() => undefined)
  .then(() => {
    // As a transition, React hydrates in slices of a few milliseconds and lets the browser answer
    // taps and paint in between; otherwise the whole page hydrates in one long task, which on a
    // phone holds the main thread for a quarter of a second.
    startTransition(() => {
      if (root.hasChildNodes()) hydrateRoot(root, site);
      else createRoot(root).render(site);
    });
  });
