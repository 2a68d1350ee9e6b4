import type { OutgoingHttpHeaders } from 'node:http';
import { Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_SECURITY_HEADERS, corsReadHeaders } from './api-headers.js';

/**
 * An answer kept ready: its bytes and its whole header block, built once when it is kept, so
 * serving it again costs a lookup and a write.
 */
export class ReadyAnswer {
  readonly body: Buffer;
  readonly etag?: string;
  readonly headers: OutgoingHttpHeaders;

  constructor(text: string, options: { etag?: string; cacheControl?: string } = {}) {
    this.body = Buffer.from(text);
    this.etag = options.etag;
    this.headers = {
      ...API_SECURITY_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(this.body.length),
      // Answers differ by nothing but the CORS headers between the web apps' origins.
      vary: 'Origin',
      ...(options.etag ? { etag: options.etag } : {}),
      ...(options.cacheControl ? { 'cache-control': options.cacheControl } : {}),
    };
  }
}

/** The ready answer to a request of a route, if one is kept (undefined: let the route answer). */
export type ReadyLookup = (request: FastifyRequest) => ReadyAnswer | undefined;

/**
 * The fast path of the hot public reads (coupon lists, home content, store pages). Each keeps its
 * answers in its own cache and registers a lookup here by route; one onRequest hook, the first of
 * the server's, answers a request whose lookup finds a ready answer, before the other hooks, Nest's
 * middleware, guards and pipes run: they would cost most of the request's time and add nothing a
 * public read needs. What they would have added is in the answer's header block (security headers,
 * CORS for the web apps' origins) or added here (the request id).
 */
@Injectable()
export class ReadyAnswers {
  private readonly lookups = new Map<string, ReadyLookup>();

  /** Serve `routes` (route patterns, as Fastify names them) from `lookup` when it has an answer. */
  register(routes: readonly string[], lookup: ReadyLookup): void {
    for (const route of routes) this.lookups.set(route, lookup);
  }

  /**
   * Serves through the hook {@link reserveReadyHook} added when the server was made: before Nest
   * registers its middleware plugin (request logging runs there), which it does as the
   * application is created, before any of the application's own code could add a hook.
   */
  install(server: FastifyInstance, webAppUrls: readonly string[]): void {
    const cors = corsReadHeaders(webAppUrls);
    const slot = readyHooks.get(server);
    if (!slot) throw new Error('The server was not made by createHttpAdapter: no hook for ready answers');
    slot.serve = (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
      const method = request.method;
      const route = request.routeOptions.url;
      const lookup = (method === 'GET' || method === 'HEAD') && route ? this.lookups.get(route) : undefined;
      const answer = lookup?.(request);
      if (!answer) return done();
      // Fastify runs no further hook nor the route for a hijacked reply; its onResponse hooks
      // (request metrics) still run when the answer is written.
      reply.hijack();
      const origin = request.headers.origin;
      const corsHeaders = origin === undefined ? undefined : cors.get(origin);
      const notModified = answer.etag !== undefined && request.headers['if-none-match'] === answer.etag;
      const response = reply.raw;
      response.setHeader('x-request-id', request.id);
      if (corsHeaders)
        for (const [name, value] of Object.entries(corsHeaders)) response.setHeader(name, value!);
      if (notModified) {
        const { 'content-length': _length, 'content-type': _type, ...headers } = answer.headers;
        response.writeHead(304, headers).end();
      } else {
        response.writeHead(200, answer.headers).end(method === 'HEAD' ? undefined : answer.body);
      }
      done();
    };
  }
}

type HookDone = (error?: Error) => void;

/** The hook of each server, made with the server, served once the application installs its answers. */
const readyHooks = new WeakMap<
  FastifyInstance,
  { serve?: (request: FastifyRequest, reply: FastifyReply, done: HookDone) => void }
>();

/** Adds the ready answers' hook to a new server, first of all its onRequest hooks but Nest's own. */
export function reserveReadyHook(server: FastifyInstance): void {
  const slot: { serve?: (request: FastifyRequest, reply: FastifyReply, done: HookDone) => void } = {};
  readyHooks.set(server, slot);
  server.addHook('onRequest', (request, reply, done) =>
    slot.serve ? slot.serve(request, reply, done) : done(),
  );
}
