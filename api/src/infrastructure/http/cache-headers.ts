import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { PRIVATE_CACHE_CONTROL, PUBLIC_API_READS, publicCacheControl } from '../../rules/caching.js';
import type { Environment } from '../config/environment.js';

/** A strong entity tag of an answer's bytes: the same bytes, the same tag in every process. */
export function entityTagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** `Cache-Control` of the API's public reads, from the settings (see rules/caching.ts). */
export function publicReadCacheControl(environment: Pick<Environment, 'CDN_MAX_AGE' | 'CDN_STALE_SECONDS'>) {
  return publicCacheControl(environment.CDN_MAX_AGE, environment.CDN_STALE_SECONDS);
}

/**
 * Every routed answer says how it may be kept, unless its route said so itself (images, click-outs,
 * notice pages): a public read's 200 is public, with its entity tag, and a 304 when the caller holds
 * it; everything else (signed-in reads, merchant and admin answers, commands, errors) is kept by no
 * cache, so a CDN in front of the site can never hand one visitor's answer to another. The public
 * reads answered before routing (ReadyAnswers) carry the same headers in their ready blocks.
 */
export function sendCacheHeaders(instance: FastifyInstance, environment: Environment): void {
  const publicRoutes = new Set(PUBLIC_API_READS);
  const publicControl = publicReadCacheControl(environment);
  instance.addHook('onSend', (request, reply, payload, done) => {
    if (reply.hasHeader('cache-control')) return done(null, payload);
    const route = request.routeOptions.url;
    const readable =
      (request.method === 'GET' || request.method === 'HEAD') &&
      reply.statusCode === 200 &&
      route !== undefined &&
      publicRoutes.has(route) &&
      (typeof payload === 'string' || Buffer.isBuffer(payload));
    if (!readable) {
      reply.header('cache-control', PRIVATE_CACHE_CONTROL);
      return done(null, payload);
    }
    const etag = entityTagOf(payload as string | Buffer);
    reply.header('cache-control', publicControl).header('etag', etag);
    if (request.headers['if-none-match'] !== etag) return done(null, payload);
    reply.code(304).removeHeader('content-length');
    done(null, '');
  });
}
