import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { PRIVATE_CACHE_CONTROL } from '@offers/api/rules';
import type { Renderer } from './renderer.js';
import { SECURITY_HEADERS, transportSecurityHeaders } from './security-headers.js';
import type { PageHead, SsrEntry } from './ssr-entry.js';

type Encoding = 'identity' | 'gzip' | 'br';

/**
 * A page ready to send: its status, and its bytes in each encoding a browser may accept with each
 * one's whole header block, built once per page so that sending it again costs a lookup and a write.
 */
export interface ReadyDocument {
  status: number;
  etag: string;
  bodies: Readonly<Record<Encoding, Buffer>>;
  /** Each encoding's header block as `writeHead` takes it: names and values in one flat list. */
  headers: Readonly<Record<Encoding, readonly string[]>>;
  /** The header block of a 304: the same without the body's encoding and length. */
  notModifiedHeaders: readonly string[];
}

/** A page that lives at another address. */
export interface Moved {
  redirect: string;
  status: 301 | 302;
}

/**
 * Run first on `/`: the language a returning visitor chose (its cookie, set by the language menu)
 * sends them to that language's home, whoever served the page (the site or a CDN's copy).
 */
export const CHOSEN_LANGUAGE_SCRIPT =
  "(function(){var m=/(?:^|;\\s*)language=(hi|te)(?:;|$)/.exec(document.cookie);if(m)location.replace('/'+m[1]+'/'+location.search)})()";

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

/** The `<head>` tags of a page: title, description, addresses, link previews, structured data. */
function headTags(entry: SsrEntry, head: PageHead): { html: string; scripts: string[] } {
  const e = entry.escapeHtml;
  const meta = (attribute: 'name' | 'property', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${e(value)}">`;
  const scripts = head.jsonLd.map((item) => entry.scriptJson(item));
  const image = head.preloadImage;
  const tags = [
    // The page's largest image is asked for before anything else can compete with it.
    ...(image
      ? [
          `<link rel="preload" as="image" href="${e(image.href)}"${image.srcset ? ` imagesrcset="${e(image.srcset)}" imagesizes="${e(image.sizes ?? '')}"` : ''} fetchpriority="high">`,
        ]
      : []),
    `<title>${e(head.title)}</title>`,
    meta('name', 'description', head.description),
    ...(head.robots ? [meta('name', 'robots', head.robots)] : []),
    ...(head.canonical ? [`<link rel="canonical" href="${e(head.canonical)}">`] : []),
    ...head.alternates.map(
      (alternate) => `<link rel="alternate" hreflang="${alternate.lang}" href="${e(alternate.href)}">`,
    ),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', 'Offers Marketplace'),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    ...(head.canonical ? [meta('property', 'og:url', head.canonical)] : []),
    meta('property', 'og:image', head.image),
    meta('property', 'og:locale', head.locale),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
    meta('name', 'twitter:image', head.image),
    ...scripts.map((json) => `<script type="application/ld+json">${json}</script>`),
  ];
  return { html: tags.join('\n    '), scripts };
}

/**
 * The security policy of a page: scripts only from this origin, plus the page's own inline scripts
 * by their hashes (data blocks, never run, but named all the same; `/`'s language step); no frames.
 */
function securityPolicy(inlineScripts: string[], styleHashes: string[], development: boolean): string {
  if (development) return ''; // Vite's development client injects inline scripts and a socket.
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScripts.map(sha256).join(' ')}`.trim(),
    `style-src 'self' ${styleHashes.join(' ')}`.trim(),
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * `vary`: what besides the address the answer depends on (the encoding only: the language is in the
 * address, and pages are the same for every visitor). `cacheControl`: who may keep it (see
 * rules/caching.ts): the CDN for public pages, no cache for the account's pages and forms.
 */
export function readyDocument(
  status: number,
  html: string,
  contentSecurityPolicy: string,
  vary: string,
  /** Headers of the site's address (HSTS when it is https). */
  siteHeaders: Readonly<Record<string, string>>,
  cacheControl: string,
): ReadyDocument {
  const identity = Buffer.from(html, 'utf8');
  const bodies = {
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    // Made once per change, sent many times: the better ratio is worth the few milliseconds.
    br: brotliCompressSync(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
  };
  const etag = `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  const common = [
    ...Object.entries(SECURITY_HEADERS).flat(),
    ...Object.entries(siteHeaders).flat(),
    ...['content-type', 'text/html; charset=utf-8'],
    ...['cache-control', cacheControl],
    ...['etag', etag],
    ...['vary', vary],
    ...(contentSecurityPolicy ? ['content-security-policy', contentSecurityPolicy] : []),
  ];
  const headersOf = (encoding: Encoding) => [
    ...common,
    ...(encoding === 'identity' ? [] : ['content-encoding', encoding]),
    ...['content-length', String(bodies[encoding].length)],
  ];
  return {
    status,
    etag,
    bodies,
    headers: { identity: headersOf('identity'), gzip: headersOf('gzip'), br: headersOf('br') },
    notModifiedHeaders: common,
  };
}

/** The encoding a page goes in: brotli when the browser takes it, else gzip, else as it is. */
function encodingFor(accepted: string | undefined): Encoding {
  if (accepted === undefined) return 'identity';
  return /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : 'identity';
}

/**
 * Sends a page: a 304 when the browser holds this version of it, else its bytes. The whole block
 * goes in one writeHead call: a header set before it (setHeader) sends Node down its slower path.
 */
export function sendDocument(
  document: ReadyDocument,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  if (document.status === 200 && request.headers['if-none-match'] === document.etag) {
    response.writeHead(304, document.notModifiedHeaders as string[]).end();
    return;
  }
  const encoding = encodingFor(request.headers['accept-encoding']);
  response
    .writeHead(document.status, document.headers[encoding] as string[])
    .end(request.method === 'HEAD' ? undefined : document.bodies[encoding]);
}

/**
 * Renders the page at an address (within the site: `/hi/coupons?sort=az`) from the read models,
 * or says where it moved. Unknown pages and stores render the site's not-found page with 404.
 */
export async function renderDocument(options: {
  renderer: Renderer;
  fetch: (url: string) => Promise<unknown | undefined>;
  url: string;
  publicUrl: string;
  development: boolean;
  /** `Cache-Control` of a public page (the CDN's settings). */
  publicCacheControl: string;
}): Promise<ReadyDocument | Moved> {
  const { renderer, fetch, url, publicUrl, development } = options;
  const entry = await renderer.entry();
  const address = new URL(url, 'http://site.invalid');
  const { lang, path } = entry.splitLanguage(address.pathname);
  let match = entry.matchPage(path);
  if (match.page === 'redirect') return { redirect: entry.localePath(lang, match.to!), status: 301 };
  const { data, found } = await entry.loadPageData(match, address.searchParams, fetch);
  if (!found) {
    match = { page: 'notFound' };
  } else if (match.page === 'store') {
    // An old address by merchant id moves to the store's own.
    const store = data[`/api/stores/${match.address}`] as { slug: string } | undefined;
    if (store && store.slug !== match.address) {
      return { redirect: `${entry.localePath(lang, `/store/${store.slug}`)}${address.search}`, status: 301 };
    }
  }
  // Rendering loads the language's texts, which the head's words come from.
  const app = await entry.renderPage(`${address.pathname}${address.search}`, lang, data);
  const head = entry.headFor({ match, path, search: address.searchParams, lang, data, publicUrl });
  const { html: headHtml, scripts: dataScripts } = headTags(entry, head);
  // `/` is one page for everyone, kept by the CDN: a returning visitor who chose Hindi or Telugu
  // is sent on to that home by the page itself (the server does it too when asked directly).
  const home = address.pathname === '/';
  const scripts = home ? [...dataScripts, CHOSEN_LANGUAGE_SCRIPT] : dataScripts;
  const pageData = entry.scriptJson(data);
  const modules = renderer.chunksOf(match.page, lang).join(' ');
  const html = (await renderer.template(url))
    .replace('<html lang="en">', `<html lang="${lang}">`)
    .replace(
      '<!--app-head-->',
      home ? `<script>${CHOSEN_LANGUAGE_SCRIPT}</script>\n    ${headHtml}` : headHtml,
    )
    .replace('<!--app-html-->', app)
    .replace(
      '<!--app-data-->',
      `<script type="application/json" id="${entry.PAGE_DATA_ID}"${modules ? ` data-modules="${entry.escapeHtml(modules)}"` : ''}>${pageData}</script>`,
    );
  return readyDocument(
    match.page === 'notFound' ? 404 : 200,
    html,
    securityPolicy([...scripts, pageData], renderer.styleHashes, development),
    'Accept-Encoding',
    transportSecurityHeaders(publicUrl),
    entry.isPrivate(match) ? PRIVATE_CACHE_CONTROL : options.publicCacheControl,
  );
}
