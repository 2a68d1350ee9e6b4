import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { Logger } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { Logger as PinoLogger } from 'nestjs-pino';
import { transportSecurityHeaders } from '../../rules/http.js';
import { Environment } from '../config/environment.js';
import { QueueRegistry } from '../jobs/queue-registry.js';
import { QueueName } from '../jobs/queues.js';
import { Metrics } from '../metrics/metrics.js';
import { recordRequestDurations } from '../metrics/request-metrics.js';
import { requestIdFor } from '../platform/logging.js';
import { ADMIN_GATE, type AdminGate } from './access.js';
import { API_SECURITY_HEADERS, corsOptions, HTML_SECURITY_HEADERS } from './api-headers.js';
import { sendCacheHeaders } from './cache-headers.js';
import { addressList } from './client-address.js';
import { HttpErrorFilter, requestIdOf, sendErrorBody, toErrorBody } from './error-filter.js';
import { RateLimits } from './rate-limits.js';
import { keepRawBody, RAW_BODY_ROUTES, type RawBodyRoutes } from './raw-body.js';
import { ReadyAnswers, readyServerFactory } from './ready-answers.js';
import { answerWithinDeadline } from './request-deadline.js';
import {
  answerFrameworkErrors,
  refuseCrossSiteRequests,
  refuseFormBodies,
  refuseUnreadableText,
  useDepthCheckedJson,
} from './request-guards.js';
import { createValidationPipe } from './validation.js';

export const API_PREFIX = 'api';

export interface RouteSummary {
  method: string;
  url: string;
}

const routesByApp = new WeakMap<NestFastifyApplication, RouteSummary[]>();

/** Every route the application serves (Nest controllers and plugins alike), as registered. */
export function registeredRoutes(app: NestFastifyApplication): RouteSummary[] {
  return routesByApp.get(app) ?? [];
}
export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';

/**
 * Fastify, naming each request after the caller's `X-Request-Id` when it sent a sane one, on a
 * server that serves ready public reads before Fastify routes them (see ReadyAnswers).
 */
export function createHttpAdapter(trustedProxies: string): FastifyAdapter {
  const ready = readyServerFactory();
  const adapter = new FastifyAdapter({
    // X-Forwarded-For is believed only from the proxies the deployment names: limits, throttles
    // and counters key on the client address it gives.
    trustProxy: addressList(trustedProxies),
    bodyLimit: 1024 * 1024,
    genReqId: requestIdFor,
    serverFactory: ready.serverFactory,
    frameworkErrors: answerFrameworkErrors,
  });
  ready.bind(adapter.getInstance());
  return adapter;
}

/**
 * Everything about the HTTP surface that is not a route: shared by `main.ts` and the tests, so
 * tests exercise the same conventions as production.
 */
export async function configureHttpApp(app: NestFastifyApplication): Promise<void> {
  const environment = app.get(Environment);
  app.useLogger(app.get(PinoLogger));
  const routes: RouteSummary[] = [];
  routesByApp.set(app, routes);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
  app.setGlobalPrefix(API_PREFIX);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new HttpErrorFilter());
  const instance = app.getHttpAdapter().getInstance();
  const webAppUrls = [environment.PUBLIC_URL, environment.BACKOFFICE_URL];
  // A ready public read is answered by the server the adapter made, before Fastify routes it.
  const siteHeaders = transportSecurityHeaders(environment.PUBLIC_URL);
  app.get(ReadyAnswers).install(instance, webAppUrls, app.get(Metrics), siteHeaders);
  instance.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id).headers(API_SECURITY_HEADERS).headers(siteHeaders);
    done();
  });
  // HTML (the OpenAPI page, the queue dashboard, notice pages) gets a document's policies too.
  const htmlSecurityHeaders = helmet(HTML_SECURITY_HEADERS);
  instance.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('text/html')) return done(null, payload);
    htmlSecurityHeaders(request.raw, reply.raw, (error?: unknown) =>
      error ? done(error as Error) : done(null, payload),
    );
  });
  // Public reads may be kept by a CDN; anything else by no cache (rules/caching.ts).
  sendCacheHeaders(instance, environment);
  recordRequestDurations(instance, app.get(Metrics));
  app.get(RateLimits).install(instance);
  answerWithinDeadline(instance, {
    requestMs: environment.REQUEST_TIMEOUT_MS,
    uploadMs: environment.UPLOAD_TIMEOUT_MS,
  });
  // Pages on other sites may not act for a visitor's browser, and bodies are JSON or multipart.
  refuseCrossSiteRequests(instance, [
    environment.PUBLIC_URL,
    environment.BACKOFFICE_URL,
    environment.API_URL,
  ]);
  refuseFormBodies(instance);
  // NUL characters and lone surrogates, in the address or a body, are refused before any route.
  refuseUnreadableText(instance);
  useDepthCheckedJson(app.getHttpAdapter() as FastifyAdapter);
  // Routes whose callers sign the body's bytes, as the feature serving them registered them.
  const rawBodyRoutes = app.get<RawBodyRoutes>(RAW_BODY_ROUTES);
  keepRawBody(instance, rawBodyRoutes.paths, rawBodyRoutes.prefixes);
  await app.register(cookie);
  // Forms with files (coupon ad images, store banners); each route reads its parts itself.
  await app.register(multipart, { limits: { fields: 100, files: 4, parts: 110 } });
  app.enableCors(corsOptions(webAppUrls));

  const openApi = new DocumentBuilder()
    .setTitle('Offers marketplace API')
    .setDescription('Coupons, offers, cashback and merchant storefronts.')
    .setVersion('1')
    .addBearerAuth()
    .build();
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, () => SwaggerModule.createDocument(app, openApi), {
    jsonDocumentUrl: `${API_PREFIX}/docs/openapi.json`,
  });

  await mountQueueDashboard(app);
}

/** Bull Board for admins. Loaded lazily: it brings a UI bundle and a static file server. */
async function mountQueueDashboard(app: NestFastifyApplication): Promise<void> {
  const [{ createBullBoard }, { BullMQAdapter }, { FastifyAdapter: BullBoardAdapter }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/fastify'),
  ]);
  const registry = app.get(QueueRegistry);
  const serverAdapter = new BullBoardAdapter();
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: Object.values(QueueName).map(
      (name) => new BullMQAdapter(registry.get(name), { readOnlyMode: false }),
    ),
    serverAdapter,
  });
  const adminGate = app.get<AdminGate>(ADMIN_GATE);
  const logger = new Logger('QueueDashboard');
  await app.register(
    async (scope: FastifyInstance) => {
      // Outside Nest's router, so the guard is applied here: admins only, like /api/admin/*.
      scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        try {
          await adminGate.admit(request);
        } catch (error) {
          return sendErrorBody(reply, toErrorBody(error, requestIdOf(request), logger));
        }
      });
      await scope.register(serverAdapter.registerPlugin() as never);
    },
    { prefix: QUEUE_DASHBOARD_PATH },
  );
}
