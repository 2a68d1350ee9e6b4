import { forwardedFor } from '@offers/api/site';
import type { FastifyInstance } from 'fastify';
import { LRUCache } from 'lru-cache';

/** Bytes of images kept in memory by the site's server, most recently asked for first. */
export const IMAGE_CACHE_BYTES = 64 << 20;
/** Larger images are passed through, not kept (originals; the sizes pages ask for are far smaller). */
const LARGEST_KEPT = 1 << 20;
/** Images kept at most, however small (each costs its headers and key besides its bytes). */
export const IMAGE_CACHE_ENTRIES = 10_000;
const UPSTREAM_TIMEOUT_MS = 30_000;

interface KeptImage {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers of the API's answer that go with the bytes (or with a redirect to the images' CDN). */
const KEPT_HEADERS = ['content-type', 'cache-control', 'etag', 'vary', 'last-modified', 'location'];

/**
 * The images of the pages (`/api/media/:id`, with `?w=`), kept in memory once fetched from the API:
 * an image never changes under its address (the API sends them `immutable`), so the copy never goes
 * stale. A page's images then arrive as fast as its scripts, and the API is not asked again for
 * every visitor (the role a CDN plays in front of a bigger installation). Bounded by bytes and by
 * entries, least recently used dropped first (lru-cache).
 */
export class ImageCache {
  private readonly kept: LRUCache<string, KeptImage>;

  constructor(maxBytes = IMAGE_CACHE_BYTES, maxEntries = IMAGE_CACHE_ENTRIES) {
    this.kept = new LRUCache({
      max: maxEntries,
      maxSize: maxBytes,
      maxEntrySize: Math.min(LARGEST_KEPT, maxBytes),
      sizeCalculation: (image) => Math.max(1, image.body.length),
    });
  }

  get size(): number {
    return this.kept.size;
  }

  get(key: string): KeptImage | undefined {
    return this.kept.get(key);
  }

  set(key: string, image: KeptImage): void {
    if (!this.kept.has(key)) this.kept.set(key, image);
  }
}

/**
 * The address an image is kept and asked for under: its id and its width (`?w=`), nothing else,
 * so a parameter the API does not read never makes a copy. Undefined: a query the API must judge
 * (a width that is not a number); such an answer is passed through and not kept.
 */
function canonicalImageAddress(path: string, query: string): string | undefined {
  if (query === '') return path;
  const width = new URLSearchParams(query).get('w');
  if (width === null) return path;
  return /^\d{1,5}$/.test(width) ? `${path}?w=${Number(width)}` : undefined;
}

/**
 * Serves `/api/media/:id` from the cache, asking the API on a miss. The API's format choice
 * depends only on whether the browser takes WebP, so that is part of the key.
 */
export function serveImages(app: FastifyInstance, upstream: string, cache = new ImageCache()): void {
  app.get<{ Params: { id: string } }>('/api/media/:id', async (request, reply) => {
    const webp = /image\/webp/.test(request.headers.accept ?? '');
    const at = request.url.indexOf('?');
    const address = canonicalImageAddress(
      at === -1 ? request.url : request.url.slice(0, at),
      at === -1 ? '' : request.url.slice(at + 1),
    );
    const key = address && `${address}|${webp ? 'webp' : 'other'}`;
    let image = key ? cache.get(key) : undefined;
    if (!image) {
      const response = await fetch(new URL(address ?? request.url, upstream), {
        // An API whose images are in a bucket with a public address redirects there: the browser
        // follows it to the CDN, rather than this server fetching (and keeping) the bytes.
        redirect: 'manual',
        signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
        headers: {
          accept: request.headers.accept ?? '*/*',
          'x-forwarded-for': forwardedFor(request.raw),
        },
      }).catch(() => undefined);
      // As the forwarding of the rest of /api answers when the API cannot be reached.
      if (!response) return reply.status(503).send({ statusCode: 503, message: 'Service Unavailable' });
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = response.headers.get(name);
        if (value) headers[name] = value;
      }
      image = { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
      if (key && response.status === 200 && /\bimmutable\b/.test(headers['cache-control'] ?? ''))
        cache.set(key, image);
    }
    if (
      image.status === 200 &&
      image.headers.etag &&
      request.headers['if-none-match'] === image.headers.etag
    ) {
      return reply.status(304).headers(image.headers).send();
    }
    return reply.status(image.status).headers(image.headers).send(image.body);
  });
}
