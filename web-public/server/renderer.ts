import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ViteDevServer } from 'vite';
import type { SsrEntry } from './ssr-entry.js';

/** Where the renderer gets its bundle and page template: a production build, or Vite in development. */
export interface Renderer {
  entry(): Promise<SsrEntry>;
  /** index.html with the browser's scripts and styles, for this address. */
  template(url: string): Promise<string>;
  /**
   * The chunks of the app, of a page's module and of its language's texts (the site's and the
   * page's own), which the page lists for the browser to fetch when it starts the app
   * (production only).
   */
  chunksOf(page: string, lang: string): string[];
  /** The inline styles of the template, by their CSP hashes. */
  styleHashes: string[];
  vite?: ViteDevServer;
}

/**
 * The app itself (React, the layout, the home page), which the browser's small entry imports once
 * the server's HTML is painted: fetched along with the page, run after its first paint.
 */
const APP_MODULE = 'src/hydrate.tsx';

/** The page modules behind each kind of page, as named in the client build's manifest. */
const PAGE_MODULES: Record<string, string> = {
  listing: 'src/pages/CouponsPage.tsx',
  store: 'src/pages/StorePage.tsx',
  stores: 'src/pages/StoresPage.tsx',
  info: 'src/pages/InfoPage.tsx',
  contact: 'src/pages/ContactPage.tsx',
  grievance: 'src/pages/GrievancePage.tsx',
  register: 'src/pages/RegisterPage.tsx',
  signIn: 'src/pages/SignInPage.tsx',
  account: 'src/pages/AccountPage.tsx',
  accountSecurity: 'src/pages/AccountSecurityPage.tsx',
  forgotPassword: 'src/pages/ForgotPasswordPage.tsx',
  resetPassword: 'src/pages/ResetPasswordPage.tsx',
  notFound: 'src/pages/NotFound.tsx',
};

/** The parts of the texts (`loadTexts`) a page loads beyond the home page's, as named in the manifest. */
const account = (lang: string) => [`src/locales/account/${lang}.json`];
const stores = (lang: string) => [`src/locales/stores/${lang}.json`];
const forms = (lang: string) => [`src/locales/forms/${lang}.json`];

/** The texts a page's module loads in the address's language, as named in the manifest. */
const PAGE_TEXTS: Record<string, (lang: string) => string[]> = {
  info: (lang) => [`src/pages/info/${lang}.ts`],
  register: (lang) => [...account(lang), ...forms(lang)],
  contact: forms,
  grievance: forms,
  signIn: account,
  account: (lang) => [...account(lang), ...stores(lang)],
  accountSecurity: account,
  forgotPassword: account,
  resetPassword: account,
  store: stores,
  stores,
};

interface ManifestChunk {
  file: string;
  imports?: string[];
}

export async function productionRenderer(root: string): Promise<Renderer> {
  const client = join(root, 'dist', 'client');
  const [built, manifestText, entry] = await Promise.all([
    readFile(join(client, 'index.html'), 'utf8'),
    readFile(join(client, '.vite', 'manifest.json'), 'utf8'),
    import(join(root, 'dist', 'server', 'entry-server.js')) as Promise<SsrEntry>,
  ]);
  const manifest = JSON.parse(manifestText) as Record<string, ManifestChunk>;
  // The site's few kilobytes of CSS go in the page itself: on a slow phone network a stylesheet
  // is one more round trip before anything is painted.
  const styleHashes: string[] = [];
  let template = built;
  for (const [link, file] of built.matchAll(/<link rel="stylesheet"[^>]* href="\/(assets\/[^"]+\.css)">/g)) {
    const css = (await readFile(join(client, file!), 'utf8')).trim();
    styleHashes.push(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
    template = template.replace(link, `<style>${css}</style>`);
  }
  // The page is complete without scripts, so they come last in it, at low priority: a phone on a
  // slow network fetches the images the shopper sees first (over HTTP/1.1 a browser opens six
  // connections to a host; scripts asked for in the head would take them before the images).
  const scripts = [
    ...template.matchAll(
      /<script type="module" crossorigin[^>]*><\/script>|<link rel="modulepreload" crossorigin[^>]*>/g,
    ),
  ].map(([tag]) => tag);
  for (const tag of scripts) template = template.replace(tag, '');
  template = template.replace(
    '</body>',
    `${scripts
      .map((tag) =>
        tag.replace(/^<(script|link) ([^>]*?)crossorigin/, '<$1 $2fetchpriority="low" crossorigin'),
      )
      .reverse()
      .join('\n    ')}\n  </body>`,
  );
  const entryImports = new Set(manifest['index.html']?.imports ?? []);
  const chunks = (name: string, seen = new Set<string>()): string[] => {
    const chunk = manifest[name];
    if (!chunk || seen.has(name) || name === 'index.html' || entryImports.has(name)) return [];
    seen.add(name);
    return [`/${chunk.file}`, ...(chunk.imports ?? []).flatMap((imported) => chunks(imported, seen))];
  };
  return {
    entry: async () => entry,
    template: async () => template,
    styleHashes,
    chunksOf: (page, lang) => {
      const seen = new Set<string>();
      return [
        ...chunks(APP_MODULE, seen),
        ...(PAGE_MODULES[page] ? chunks(PAGE_MODULES[page], seen) : []),
        ...(PAGE_TEXTS[page]?.(lang).flatMap((name) => chunks(name, seen)) ?? []),
        ...(lang === 'en' ? [] : chunks(`src/locales/${lang}.json`, seen)),
      ];
    },
  };
}

export async function developmentRenderer(root: string): Promise<Renderer> {
  const { createServer } = await import('vite');
  const vite = await createServer({
    root,
    configFile: join(root, 'vite.config.ts'),
    server: { middlewareMode: true },
    appType: 'custom',
  });
  return {
    vite,
    entry: () => vite.ssrLoadModule('/src/entry-server.tsx') as Promise<SsrEntry>,
    template: async (url) => vite.transformIndexHtml(url, await readFile(join(root, 'index.html'), 'utf8')),
    chunksOf: () => [],
    styleHashes: [],
  };
}
