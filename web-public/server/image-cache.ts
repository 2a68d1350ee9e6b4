import { forwardedFor } from '@offers/api/http/client-address';
import type { FastifyInstance } from 'fastify';

/** Bytes of images kept in memory by the site's server, most recently asked for first. */
export const IMAGE_CACHE_BYTES = 64 << 20;
/** Larger images are passed through, not kept (originals; the sizes pages ask for are far smaller). */
const LARGEST_KEPT = 1 << 20;
const UPSTREAM_TIMEOUT_MS = 30_000;

interface KeptImage {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers of the API's answer that go with the bytes. */
const KEPT_HEADERS = ['content-type', 'cache-control', 'etag', 'vary', 'last-modified'];

/**
 * The images of the pages (`/api/media/:id`, with `?w=`), kept in memory once fetched from the API:
 * an image never changes under its address (the API sends them `immutable`), so the copy never goes
 * stale. A page's images then arrive as fast as its scripts, and the API is not asked again for
 * every visitor (the role a CDN plays in front of a bigger installation). Bounded by bytes, least
 * recently used dropped first; a Map keeps the order (a library's LRU would do the same, and the
 * one hoisted for other packages here is an old major version the site's server would resolve).
 */
export class ImageCache {
  private readonly kept = new Map<string, KeptImage>();
  private bytes = 0;

  constructor(private readonly maxBytes = IMAGE_CACHE_BYTES) {}

  get(key: string): KeptImage | undefined {
    const image = this.kept.get(key);
    if (image) {
      this.kept.delete(key);
      this.kept.set(key, image);
    }
    return image;
  }

  set(key: string, image: KeptImage): void {
    if (image.body.length > LARGEST_KEPT || this.kept.has(key)) return;
    this.kept.set(key, image);
    this.bytes += image.body.length;
    for (const [oldest, { body }] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.bytes -= body.length;
    }
  }
}

/**
 * Serves `/api/media/:id` from the cache, asking the API on a miss. The API's format choice
 * depends only on whether the browser takes WebP, so that is part of the key.
 */
export function serveImages(app: FastifyInstance, upstream: string, cache = new ImageCache()): void {
  app.get<{ Params: { id: string } }>('/api/media/:id', async (request, reply) => {
    const webp = /image\/webp/.test(request.headers.accept ?? '');
    const key = `${request.url}|${webp ? 'webp' : 'other'}`;
    let image = cache.get(key);
    if (!image) {
      const response = await fetch(new URL(request.url, upstream), {
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
      if (response.status === 200 && /\bimmutable\b/.test(headers['cache-control'] ?? ''))
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
