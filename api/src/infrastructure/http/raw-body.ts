import { Readable } from 'node:stream';
import { PayloadTooLargeException } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export type RawBodyRequest = FastifyRequest & { rawBody?: Buffer };

/**
 * The routes whose callers sign the body's exact bytes: paths, and prefixes of paths. Provided by
 * the feature that serves them (the earnings' postbacks), read when the HTTP app is configured.
 */
export interface RawBodyRoutes {
  paths: readonly string[];
  prefixes: readonly string[];
}

export const RAW_BODY_ROUTES = Symbol('RAW_BODY_ROUTES');

/** Postbacks are small; anything bigger is refused before it is read whole. */
const RAW_BODY_MAX_BYTES = 64 * 1024;

/**
 * Keeps the exact bytes of the request body for the given paths and the paths under the given
 * prefixes, whose callers may sign it (HMAC over the raw body): JSON parsing would lose spacing
 * and key order. Other routes are untouched.
 */
export function keepRawBody(
  instance: FastifyInstance,
  paths: readonly string[],
  prefixes: readonly string[] = [],
): void {
  instance.addHook('preParsing', async (request: RawBodyRequest, _reply, payload) => {
    const path = request.url.split('?')[0]!;
    if (!paths.includes(path) && !prefixes.some((prefix) => path.startsWith(prefix))) return payload;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      size += (chunk as Buffer).length;
      if (size > RAW_BODY_MAX_BYTES)
        throw new PayloadTooLargeException({ statusCode: 413, message: 'The request body is too large.' });
      chunks.push(chunk as Buffer);
    }
    request.rawBody = Buffer.concat(chunks);
    return Readable.from([request.rawBody]);
  });
}
