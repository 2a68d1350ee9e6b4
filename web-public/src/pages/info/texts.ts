import { use } from 'react';
import type { Language } from '../../site';
import type { InfoTexts } from './types';

/**
 * The static pages' texts, a chunk per language loaded only by these pages. The server loads the
 * address's language before rendering and the browser before hydrating (the page module's
 * `preload`), so both render the same words at once; a page reached later in the browser waits for
 * its language's chunk like it waits for its own.
 */
const LOADERS: Record<Language, () => Promise<{ default: InfoTexts }>> = {
  en: () => import('./en'),
  hi: () => import('./hi'),
  te: () => import('./te'),
};

const loaded: Partial<Record<Language, InfoTexts>> = {};
const loading: Partial<Record<Language, Promise<InfoTexts>>> = {};

export function loadInfoTexts(lang: Language): Promise<InfoTexts> {
  let promise = loading[lang];
  if (!promise) {
    promise = LOADERS[lang]().then(
      (module) => {
        loaded[lang] = module.default;
        return module.default;
      },
      (error: unknown) => {
        // A failed download (a dropped connection) is tried again by the next page that asks.
        delete loading[lang];
        throw error;
      },
    );
    loading[lang] = promise;
  }
  return promise;
}

/** The texts of a language, suspending the page until they are loaded. */
export function useInfoTexts(lang: Language): InfoTexts {
  return loaded[lang] ?? use(loadInfoTexts(lang));
}

/**
 * The texts of a language already loaded: what the server's `<head>` reads after the page was
 * rendered in that language (rendering loads them, as it loads the locale).
 */
export function loadedInfoTexts(lang: Language): InfoTexts {
  const texts = loaded[lang];
  if (!texts) throw new Error(`The info pages' ${lang} texts are read before they were loaded`);
  return texts;
}
