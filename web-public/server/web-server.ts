import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import compress from '@fastify/compress';
import proxy from '@fastify/http-proxy';
import fastifyStatic from '@fastify/static';
import {
  HTTP_MESSAGES,
  nextMarketMidnight,
  PRIVATE_CACHE_CONTROL,
  publicCacheControl,
} from '@offers/api/rules';
import {
  addressList,
  CASHBACK_CHANNEL,
  CouponListings,
  type Environment,
  entityTagOf,
  forwardedFor,
  HOME_CONTENT_CHANNEL,
  isUnreadableAddress,
  LISTINGS_CHANNEL,
  ReadyCache,
  requestIdFor,
  STORE_PAGES_CHANNEL,
  serverAnsweringFirst,
} from '@offers/api/site';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { serveBackOffice } from './back-office.js';
import { robotsTxt, SITEMAP_LIMIT, sitemapEntries, sitemapFiles } from './crawler-files.js';
import { type Moved, type ReadyDocument, renderDocument, sendDocument } from './documents.js';
import { serveImages } from './image-cache.js';
import { type MonitorOptions, SiteMonitor } from './operations.js';
import { readModelFetcher } from './read-models.js';
import { developmentRenderer, productionRenderer, type Renderer } from './renderer.js';
import { SECURITY_HEADERS, transportSecurityHeaders } from './security-headers.js';

export const WEB_ROOT = fileURLToPath(new URL('../', import.meta.url)).replace(
  /\/dist\/web-public\/$/,
  '/web-public/',
);

/** Longest a rendered page is kept: the popular order follows reveals within this. */
const MAX_AGE_MS = 60_000;
/** Pages kept at most, the least recently asked for going first past either bound. */
export const MAX_PAGES = 2_000;
export const MAX_PAGE_BYTES = 256 << 20;
/** Of those, searches and not-found pages at most: they never evict the pages everyone reads. */
export const MAX_APART_PAGES = 200;

/** What a page costs to keep: its bytes in each encoding, and a little for the rest. */
function pageSize(page: ReadyDocument | Moved): number {
  if ('redirect' in page) return 256 + page.redirect.length;
  return 1_024 + page.bodies.identity.length + page.bodies.gzip.length + page.bodies.br.length;
}

export interface WebServerOptions {
  environment: Environment;
  /** Vite in middleware mode (hot reload, no build) instead of the production build. */
  development?: boolean;
  /** The site's public origin for canonical addresses, sitemaps and link previews. */
  publicUrl?: string;
  /** Addresses per sitemap file (the protocol allows 50,000). */
  sitemapLimit?: number;
  logger?: boolean;
  /** Where log lines go (stdout by default); given, the server logs even without `logger`. */
  logDestination?: MonitorOptions['logDestination'];
  /** The operations port: `/health/live`, `/health/ready`, `/metrics` (none when not given). */
  operations?: MonitorOptions['operations'];
  /** The page cache's bounds (tests make them small). */
  pageCache?: { maxPages?: number; maxApartPages?: number; maxBytes?: number };
  /** Told of each page rendered, by its address (tests count renders). */
  rendered?: (address: string) => void;
}

/** The answer to an address with a NUL or bytes that are not UTF-8: a short page, never kept. */
function unreadableAddress(reply: FastifyReply) {
  return reply
    .status(400)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>Offers Marketplace</title><p>${HTTP_MESSAGES.unreadableText}</p></html>`,
    );
}

/** The language a returning visitor chose (its cookie), which sends them from `/` to its home. */
function chosenLanguage(cookie: string | undefined): string | undefined {
  return cookie === undefined ? undefined : /(?:^|;\s*)language=(hi|te)(?:;|$)/.exec(cookie)?.[1];
}

/**
 * The public site's server: every page rendered from the read models as complete HTML (kept ready
 * until a change notification or a coupon's expiry), the browser build's files, robots.txt and the
 * sitemap, and `/api` forwarded to the API so cookies stay first-party (its images kept in memory).
 */
export async function createWebServer(options: WebServerOptions): Promise<FastifyInstance> {
  const { environment } = options;
  const development = options.development ?? false;
  const publicUrl = (options.publicUrl ?? environment.PUBLIC_URL).replace(/\/$/, '');
  const dataSource = new DataSource({
    type: 'postgres',
    url: environment.DATABASE_URL,
    entities: [],
    extra: { max: environment.WEB_POOL_SIZE, application_name: 'web-public' },
  });
  await dataSource.initialize();
  const renderer: Renderer = development
    ? await developmentRenderer(WEB_ROOT)
    : await productionRenderer(WEB_ROOT);
  const fetch = readModelFetcher(dataSource, environment);
  // Loaded once in production; what the fast path asks for an address's canonical form.
  const site = development ? undefined : await renderer.entry();
  const listings = new CouponListings(dataSource, environment);

  const siteHeaders = { ...SECURITY_HEADERS, ...transportSecurityHeaders(publicUrl) };
  // Public pages, robots.txt and the sitemap may be kept by a CDN (rules/caching.ts).
  const sharedCacheControl = publicCacheControl(environment.CDN_MAX_AGE, environment.CDN_STALE_SECONDS);
  let readyPages = false;
  const monitor = new SiteMonitor(environment, options);
  const app = Fastify({
    // A path Fastify's router cannot decode (`/store/%ED%A0%80`) is the same 400 as below.
    frameworkErrors: (error, _request, reply) => {
      const answer = reply as unknown as FastifyReply;
      if (error.code === 'FST_ERR_BAD_URL') return unreadableAddress(answer);
      return answer.status(error.statusCode ?? 400).send({ message: error.message });
    },
    // One line per answer, at the API's levels (logging.ts); the request's id as the API's.
    ...monitor.fastifyLogging(),
    genReqId: requestIdFor,
    // X-Forwarded-For is believed from the proxies the deployment names (TRUSTED_PROXIES).
    trustProxy: addressList(environment.TRUSTED_PROXIES),
    // A page kept ready is sent before Fastify makes its request and reply, runs its hooks and
    // routes: that would cost most of the request's time and add nothing the page's own header
    // block does not hold. Anything else, and everything once the server is closing, is Fastify's.
    serverFactory: serverAnsweringFirst((request, response) => {
      const startedAt = monitor.logsReadyAnswers ? performance.now() : 0;
      if (!readyPages || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
      const url = request.url ?? '/';
      if ((url === '/' || url.startsWith('/?')) && chosenLanguage(request.headers.cookie)) return false;
      // Most requests have no query: their address is their key as it is.
      let key = url;
      const query = url.indexOf('?');
      if (query !== -1 && site) {
        const canonical = site.canonicalAddress(url.slice(0, query), url.slice(query + 1));
        if (canonical.misnamed || canonical.personal) return false;
        key = canonical.address;
      }
      const document = pages.peek(key);
      if (document === undefined || 'redirect' in document) return false;
      sendDocument(document, request, response);
      monitor.readyAnswered(request, response, startedAt);
      return true;
    }),
  });
  const pages = new ReadyCache<ReadyDocument | Moved>(
    environment.DATABASE_DIRECT_URL,
    [LISTINGS_CHANNEL, HOME_CONTENT_CHANNEL, STORE_PAGES_CHANNEL, CASHBACK_CHANNEL],
    { warn: (message) => app.log.warn(message) },
    {
      maxEntries: options.pageCache?.maxPages ?? MAX_PAGES,
      maxApartEntries: options.pageCache?.maxApartPages ?? MAX_APART_PAGES,
      maxBytes: options.pageCache?.maxBytes ?? MAX_PAGE_BYTES,
      sizeOf: pageSize,
      maxAgeMs: MAX_AGE_MS,
      observe: monitor.metrics.pageLookup,
    },
  );
  const crawlerFiles = new ReadyCache<{ index: string; parts: string[] }>(
    environment.DATABASE_DIRECT_URL,
    [LISTINGS_CHANNEL, STORE_PAGES_CHANNEL],
    { warn: (message) => app.log.warn(message) },
    { maxEntries: 1, maxAgeMs: MAX_AGE_MS },
  );
  pages.start();
  crawlerFiles.start();
  readyPages = !development;
  await monitor.install(app, {
    listening: () => pages.listening && crawlerFiles.listening,
    rendererLoaded: () => development || site !== undefined,
  });
  app.addHook('preClose', (done) => {
    readyPages = false;
    done();
  });
  app.addHook('onClose', async () => {
    await Promise.all([pages.stop(), crawlerFiles.stop(), renderer.vite?.close()]);
    await dataSource.destroy();
  });

  await app.register(compress, { global: true, encodings: ['br', 'gzip'] });
  // No page or read model holds a NUL or half a surrogate pair: such an address is refused at once,
  // before it reaches a query (PostgreSQL refuses a NUL) or the API (which refuses it the same way).
  app.addHook('onRequest', async (request, reply) => {
    if (isUnreadableAddress(request.raw.url ?? '/')) return unreadableAddress(reply);
  });
  app.addHook('onSend', async (_request, reply) => {
    // A stricter policy the API chose keeps: its click-outs tell the store nothing of our addresses.
    const apiReferrerPolicy = reply.getHeader('referrer-policy');
    reply.headers(siteHeaders);
    if (apiReferrerPolicy === 'no-referrer') reply.header('referrer-policy', apiReferrerPolicy);
  });

  serveImages(app, environment.API_UPSTREAM_URL);
  await app.register(proxy, {
    upstream: environment.API_UPSTREAM_URL,
    prefix: '/api',
    rewritePrefix: '/api',
    // The API trusts this server (TRUSTED_PROXIES) to say who is asking: rate limits count the shopper.
    replyOptions: {
      rewriteRequestHeaders: (request, headers) => ({
        ...headers,
        'x-forwarded-for': forwardedFor(request.raw),
        'x-forwarded-host': request.headers.host ?? '',
        'x-forwarded-proto': request.protocol,
      }),
    },
  });

  if (development) {
    const middie = (await import('@fastify/middie')).default;
    await app.register(middie);
    app.use(renderer.vite!.middlewares);
  } else {
    await app.register(fastifyStatic, {
      root: join(WEB_ROOT, 'dist', 'client'),
      index: false,
      wildcard: false,
      // Hashed file names change with their content: browsers keep them for good.
      setHeaders: (response, path) => {
        response.header(
          'cache-control',
          path.includes(`${join('dist', 'client', 'assets')}`)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=86400',
        );
      },
    });
    await serveBackOffice(app, join(WEB_ROOT, '..', 'web-backoffice', 'dist'));
  }

  /** A public file other than a page (robots.txt, the sitemap): its ETag, a 304 when it is held. */
  const sendPublic = (request: FastifyRequest, reply: FastifyReply, type: string, body: string) => {
    const etag = entityTagOf(body);
    reply.type(type).header('cache-control', sharedCacheControl).header('etag', etag);
    return request.headers['if-none-match'] === etag ? reply.status(304).send() : reply.send(body);
  };
  const robots = robotsTxt(publicUrl);
  app.get('/robots.txt', async (request, reply) =>
    sendPublic(request, reply, 'text/plain; charset=utf-8', robots),
  );

  const sitemaps = () =>
    crawlerFiles.get('sitemap', async () => ({
      value: sitemapFiles(
        await sitemapEntries(dataSource, listings),
        publicUrl,
        options.sitemapLimit ?? SITEMAP_LIMIT,
      ),
    }));
  app.get('/sitemap.xml', async (request, reply) =>
    sendPublic(request, reply, 'application/xml; charset=utf-8', (await sitemaps()).index),
  );
  app.get<{ Params: { part: string } }>('/sitemaps/:part', async (request, reply) => {
    const number = /^([1-9]\d{0,4})\.xml$/.exec(request.params.part)?.[1];
    const part = number ? (await sitemaps()).parts[Number(number) - 1] : undefined;
    if (!part) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    return sendPublic(request, reply, 'application/xml; charset=utf-8', part);
  });

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url;
    const path = url.split('?')[0]!;
    // One address per page: no trailing slash except a language's home (`/hi/`).
    if (/^\/(hi|te)$/.test(path)) return reply.redirect(`${path}/${url.slice(path.length)}`, 301);
    if (path.length > 1 && path.endsWith('/') && !/^\/(hi|te)\/$/.test(path)) {
      return reply.redirect(`${path.replace(/\/+$/, '') || '/'}${url.slice(path.length)}`, 301);
    }
    // A returning visitor who chose Hindi or Telugu goes from `/` to that language's home. This
    // answer is theirs alone: a CDN keys on the address, so it keeps only the page, which sends
    // them on by itself (CHOSEN_LANGUAGE_SCRIPT).
    if (path === '/') {
      const chosen = chosenLanguage(request.headers.cookie);
      if (chosen)
        return reply
          .header('cache-control', PRIVATE_CACHE_CONTROL)
          .redirect(`/${chosen}/${url.slice(1)}`, 302);
    }
    // The page is rendered and kept at its canonical address: parameters it does not read (a
    // campaign's utm_*, gclid, junk) get the canonical page's bytes, never a render of their own.
    const entry = site ?? (await renderer.entry());
    const query = url.slice(path.length + 1);
    const canonical = entry.canonicalAddress(path, query);
    // A parameter the page reads whose value names nothing (a sort the page does not offer, a
    // category that does not exist) sends the visitor to the page without it.
    if (canonical.misnamed) return reply.redirect(canonical.address, 302);
    if (canonical.namesCategories) {
      const known = entry.withKnownCategories(
        canonical.address,
        ((await fetch('/api/categories')) ?? []) as Array<{ id: number; name: string }>,
      );
      if (known !== canonical.address) return reply.redirect(known, 302);
    }
    const render = (address: string) => {
      options.rendered?.(address);
      return monitor.metrics.timeRender(entry, address, () =>
        renderDocument({
          renderer,
          fetch,
          url: address,
          publicUrl,
          development,
          publicCacheControl: sharedCacheControl,
        }),
      );
    };
    // In development the sources change under the server: every request renders afresh. An account
    // form's address may carry a secret (a reset link's token): such a page is never kept.
    const document =
      development || canonical.personal
        ? await render(canonical.address)
        : await pages.get(canonical.address, async () => {
            const [value, nextExpiry] = await Promise.all([render(canonical.address), listings.nextExpiry()]);
            return {
              value,
              // Cards say when offers end in words ("Ends today"), which change at India's midnight.
              validUntil: Math.min(nextExpiry ?? Number.POSITIVE_INFINITY, nextMarketMidnight()),
              // Searches and pages not found are kept within a bounded share.
              apart: canonical.search || ('status' in value && value.status === 404),
            };
          });
    if ('redirect' in document) {
      // A moved page keeps what the visitor's address carried (a campaign's parameters).
      const carried = query && !document.redirect.includes('?') ? `?${query}` : '';
      return reply.redirect(`${document.redirect}${carried}`, document.status);
    }
    // Its header block is the page's own, as when it is sent before Fastify (no onSend hooks).
    reply.hijack();
    sendDocument(document, request.raw, reply.raw);
  };
  // A page that cannot be rendered now (the database away) is a short HTML answer to retry, not JSON.
  app.setErrorHandler(async (error: Error & { statusCode?: number }, request, reply) => {
    if ((error.statusCode ?? 500) < 500) return reply.status(error.statusCode!).send(error);
    request.log.error(error);
    return reply
      .status(503)
      .header('retry-after', '5')
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><html lang="en"><meta charset="utf-8"><title>Offers Marketplace</title>' +
          '<p>The site is busy for a moment. Please try again in a few seconds.</p></html>',
      );
  });
  app.get('/*', page);
  app.get('/', page);

  return app;
}
