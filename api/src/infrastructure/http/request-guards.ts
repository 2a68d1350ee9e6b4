import { BadRequestException, ForbiddenException, UnsupportedMediaTypeException } from '@nestjs/common';
import { type FastifyAdapter, RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HTTP_MESSAGES, JSON_MAX_DEPTH } from '../../rules/http.js';
import { API_SECURITY_HEADERS } from './api-headers.js';
import { holdsUnreadableText, isUnreadableAddress } from './unreadable-text.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Hooks answer before Nest's router, in the API's error shape. */
function refuse(
  reply: FastifyReply,
  error: BadRequestException | ForbiddenException | UnsupportedMediaTypeException,
) {
  return reply.status(error.getStatus()).send({ statusCode: error.getStatus(), message: error.message });
}

/**
 * How deeply a JSON text nests its objects and arrays, counted in one pass over the text without
 * building anything, and stopping as soon as `limit` is passed. Brackets inside strings do not
 * count. class-transformer and class-validator recurse over a parsed body, and a body nested a few
 * thousand levels overflows their stack; refusing it before `JSON.parse` costs one scan.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return false;
}

/**
 * JSON bodies go through Fastify's own parser (prototype pollution refused), after the depth check.
 * Registered through Nest's `useBodyParser`, so Nest does not add its default JSON parser.
 */
export function useDepthCheckedJson(adapter: FastifyAdapter): void {
  const instance = adapter.getInstance();
  const parse = instance.getDefaultJsonParser('error', 'error');
  adapter.useBodyParser(
    'application/json',
    false,
    { bodyLimit: instance.initialConfig.bodyLimit },
    (request: FastifyRequest, body: Buffer) =>
      new Promise((resolve, reject) => {
        const text = body.toString('utf8');
        if (jsonDepthExceeds(text, JSON_MAX_DEPTH)) {
          // A plain error with a status code, as Fastify's own parsers raise: both Nest's error
          // filter and plugins' handlers (the queue dashboard) answer it as the 400 it is.
          return reject(Object.assign(new Error(HTTP_MESSAGES.tooDeep), { statusCode: 400 }));
        }
        parse(request, text, (error, value) => (error ? reject(error) : resolve(value)));
      }),
  );
}

/**
 * NUL characters and lone UTF-16 surrogates, wherever a request carries text, answer 400 before
 * any route sees them: PostgreSQL refuses a NUL in every text value and validators throw on a
 * lone surrogate, both as 500s. The address (path and query, `%00` or bytes that are not UTF-8)
 * is checked as it arrives; a parsed body (JSON, URL-encoded form), keys and values at every
 * depth, once it is parsed. Multipart fields are read by the routes themselves (`readForm`), which
 * checks them with the same test.
 */
export function refuseUnreadableText(instance: FastifyInstance): void {
  instance.addHook('onRequest', async (request, reply) => {
    if (isUnreadableAddress(request.raw.url ?? '/'))
      return refuse(reply, new BadRequestException(HTTP_MESSAGES.unreadableText));
  });
  instance.addHook('preValidation', async (request, reply) => {
    if (holdsUnreadableText(request.body))
      return refuse(reply, new BadRequestException(HTTP_MESSAGES.unreadableText));
  });
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any hook runs. A path whose
 * percent-encoded bytes decode to no text (`/api/stores/%ED%A0%80`, an encoded surrogate) is the
 * same refusal as {@link refuseUnreadableText}'s, in the API's error shape and headers.
 */
export function answerFrameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const badUrl = error.code === 'FST_ERR_BAD_URL';
  const status = badUrl ? 400 : (error.statusCode ?? 400);
  return reply
    .status(status)
    .headers({ ...API_SECURITY_HEADERS, 'x-request-id': request.id })
    .send({ statusCode: status, message: badUrl ? HTTP_MESSAGES.unreadableText : error.message });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set by `TakesFormBody`. */
    takesFormBody?: boolean;
  }
}

/**
 * A route that takes a body of another kind, marked by the feature that owns it: mail providers'
 * one-click unsubscription (RFC 8058) posts `List-Unsubscribe=One-Click` as a URL-encoded form and
 * ignores the answer, and the page these signed links open confirms with a form of the same kind;
 * affiliate networks post their postbacks as the forms their systems send. Each acts only for the
 * holder of its link's signature or its source's secret.
 */
export const TakesFormBody = () => RouteConfig({ takesFormBody: true });

const takesFormBody = (request: FastifyRequest) => request.routeOptions.config?.takesFormBody === true;

/**
 * Request bodies are JSON, or multipart where files are sent: never the URL-encoded or plain-text
 * forms an HTML page on any site can submit without the browser asking first (no CORS preflight).
 */
export function refuseFormBodies(instance: FastifyInstance): void {
  instance.addHook('onRequest', async (request, reply) => {
    const type = request.headers['content-type'];
    if (type === undefined || SAFE_METHODS.has(request.method)) return;
    // A request without a body carries nothing to refuse: react-admin's DELETE says text/plain.
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    if (!hasBody) return;
    const essence = type.split(';')[0]!.trim().toLowerCase();
    if (essence === 'application/json' || essence === 'multipart/form-data') return;
    if (takesFormBody(request)) return;
    return refuse(reply, new UnsupportedMediaTypeException(HTTP_MESSAGES.unsupportedBody));
  });
}

const originOf = (value: string): string | undefined => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Unsafe requests that say where they come from must come from one of the web apps (or the API's
 * own origin, as seen through a trusted proxy): the `Origin` header, or without it the `Referer`.
 * A request with neither is not from a browser page (server-to-server clients with bearer tokens,
 * signed postbacks), and is left to the session checks. Browsers send `Origin` on every
 * cross-origin POST, PUT and DELETE, so a form or script on another site is refused here even
 * where a route needs no session (sign-in, registration, the public forms).
 */
export function refuseCrossSiteRequests(instance: FastifyInstance, allowedOrigins: readonly string[]): void {
  const allowed = new Set(allowedOrigins.map((url) => new URL(url).origin));
  instance.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    const referer = request.headers.referer;
    const claimed = origin ?? referer;
    if (claimed === undefined) return;
    const from = originOf(claimed);
    // `Origin: null` (sandboxed frames, opaque redirects) and unreadable values name no web app.
    if (from && (allowed.has(from) || from === `${request.protocol}://${request.host}`)) return;
    return refuse(reply, new ForbiddenException(HTTP_MESSAGES.crossSite));
  });
}
