import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import type { Metrics } from '../metrics/metrics.js';
import { requestIdFor } from '../platform/logging.js';
import { API_SECURITY_HEADERS, corsReadHeaders } from './api-headers.js';
import { serverAnsweringFirst } from './server-answering-first.js';
import { isUnreadableAddress } from './unreadable-text.js';

/**
 * An answer kept ready: its bytes and its whole header block, built once when it is kept, so
 * serving it again costs a lookup and a write.
 */
export class ReadyAnswer {
  readonly body: Buffer;
  readonly etag?: string;
  /** The header block as `writeHead` takes it: names and values in one flat list. */
  readonly headers: readonly string[];
  /** The header block of a 304: the same without the body's type and length. */
  readonly notModifiedHeaders: readonly string[];

  constructor(text: string, options: { etag?: string; cacheControl?: string } = {}) {
    this.body = Buffer.from(text);
    this.etag = options.etag;
    const common = [
      ...Object.entries(API_SECURITY_HEADERS).flat(),
      // Answers differ by nothing but the CORS headers between the web apps' origins.
      ...['vary', 'Origin'],
      ...(options.etag ? ['etag', options.etag] : []),
      ...(options.cacheControl ? ['cache-control', options.cacheControl] : []),
    ];
    this.headers = [
      ...common,
      ...['content-type', 'application/json; charset=utf-8'],
      ...['content-length', String(this.body.length)],
    ];
    this.notModifiedHeaders = common;
  }
}

/** What a lookup reads of a request: its URL (path and query, as sent) and the route's parameters. */
export interface ReadyRequest {
  readonly url: string;
  readonly params: Readonly<Record<string, string>>;
}

/** The ready answer to a request of a route, if one is kept (undefined: let the route answer). */
export type ReadyLookup = (request: ReadyRequest) => ReadyAnswer | undefined;

interface Route {
  /** The pattern, as Fastify names the route (the label of the request metrics). */
  pattern: string;
  lookup: ReadyLookup;
}

/** A route whose last segment is a parameter (`/api/stores/:store`). */
interface ParameterRoute extends Route {
  prefix: string;
  parameter: string;
}

const NO_PARAMETERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The fast path of the hot public reads (coupon lists, home content, store pages, suggestions).
 * Each keeps its answers in its own cache and registers a lookup here by route. The HTTP server
 * asks here first, before Fastify makes its request and reply objects and runs its hooks, Nest's
 * middleware, guards and pipes: they would cost most of the request's time and add nothing a
 * public read needs. What they would have added is in the answer's header block (security headers,
 * CORS for the web apps' origins) or added here (the request id, the request metrics). A request
 * the fast path does not know exactly (another method, another address shape, an answer not
 * kept, the server closing) goes to Fastify as any other.
 */
@Injectable()
export class ReadyAnswers {
  private readonly exact = new Map<string, Route>();
  private readonly withParameter: ParameterRoute[] = [];
  /** Per allowed origin, its CORS headers as a flat list of names and values. */
  private cors: ReadonlyMap<string, readonly string[]> = new Map();
  private metrics?: Metrics;
  /** Headers of the site's address (HSTS when it is https), as a flat list. */
  private siteHeaders: readonly string[] = [];
  private serving = false;

  /** Serve `routes` (route patterns, as Fastify names them) from `lookup` when it has an answer. */
  register(routes: readonly string[], lookup: ReadyLookup): void {
    for (const pattern of routes) {
      const parameterAt = pattern.lastIndexOf('/:');
      if (parameterAt === -1) {
        this.exact.set(pattern, { pattern, lookup });
      } else {
        const parameter = pattern.slice(parameterAt + 2);
        if (pattern.slice(0, parameterAt).includes(':') || !/^\w+$/.test(parameter))
          throw new Error(`A ready route has one parameter, its last segment: ${pattern}`);
        this.withParameter.push({ pattern, lookup, prefix: pattern.slice(0, parameterAt + 1), parameter });
      }
    }
  }

  /** Starts answering on the server made by {@link createReadyServer}; stops when Fastify closes. */
  install(
    server: FastifyInstance,
    webAppUrls: readonly string[],
    metrics: Metrics,
    siteHeaders: Readonly<Record<string, string>> = {},
  ): void {
    this.siteHeaders = Object.entries(siteHeaders).flat();
    const slot = readySlots.get(server);
    if (!slot) throw new Error('The server was not made by createHttpAdapter: no way to ready answers');
    this.cors = new Map(
      [...corsReadHeaders(webAppUrls)].map(([origin, headers]) => [
        origin,
        Object.entries(headers).flatMap(([name, value]) => [name, String(value)]),
      ]),
    );
    this.metrics = metrics;
    slot.answers = this;
    this.serving = true;
    // Closing, Fastify answers 503 to requests on kept-alive connections: it has them all.
    server.addHook('preClose', (done) => {
      this.serving = false;
      done();
    });
  }

  /** Answers the request when a ready answer is kept for it; false: Fastify should route it. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    const method = request.method;
    if (!this.serving || (method !== 'GET' && method !== 'HEAD')) return false;
    const started = performance.now();
    const url = request.url ?? '/';
    // An address Fastify refuses (a NUL, bytes that are not UTF-8) is refused there, with its message.
    if (isUnreadableAddress(url)) return false;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    let route = this.exact.get(path);
    let params = NO_PARAMETERS;
    if (!route) {
      const match = this.parameterRouteOf(path);
      route = match?.route;
      if (match) params = match.params;
    }
    const answer = route?.lookup({ url, params });
    if (!route || !answer) return false;

    const origin = request.headers.origin;
    const corsHeaders = origin === undefined ? undefined : this.cors.get(origin);
    const notModified = answer.etag !== undefined && request.headers['if-none-match'] === answer.etag;
    // The whole block in one writeHead call: a header set before it (setHeader) sends Node down
    // its slower path, which stores and checks every header of the block twice.
    const headers = [
      ...(notModified ? answer.notModifiedHeaders : answer.headers),
      ...this.siteHeaders,
      ...['x-request-id', requestIdFor(request)],
      ...(corsHeaders ?? []),
    ];
    if (notModified) response.writeHead(304, headers).end();
    else response.writeHead(200, headers).end(method === 'HEAD' ? undefined : answer.body);
    this.metrics?.requestDuration.observe(
      { method, route: route.pattern, status_code: notModified ? '304' : '200' },
      (performance.now() - started) / 1000,
    );
    return true;
  }

  private parameterRouteOf(
    path: string,
  ): { route: Route; params: Readonly<Record<string, string>> } | undefined {
    for (const route of this.withParameter) {
      if (!path.startsWith(route.prefix)) continue;
      const value = path.slice(route.prefix.length);
      // Anything Fastify would decode or route elsewhere is left to it.
      if (value === '' || value.includes('/') || value.includes('%')) continue;
      return { route, params: { [route.parameter]: value } };
    }
    return undefined;
  }
}

/** The ready answers of each server, once the application has installed them. */
const readySlots = new WeakMap<FastifyInstance, { answers?: ReadyAnswers }>();

/**
 * Fastify's server factory for the API: a node:http server that offers each request to the ready
 * answers first (once the application installs them), and to Fastify otherwise.
 */
export function readyServerFactory(): {
  serverFactory: FastifyServerFactory;
  bind(instance: FastifyInstance): void;
} {
  const slot: { answers?: ReadyAnswers } = {};
  return {
    serverFactory: serverAnsweringFirst(
      (request, response) => slot.answers?.answer(request, response) ?? false,
    ),
    bind: (instance) => readySlots.set(instance, slot),
  };
}
