import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { Logger } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { Logger as PinoLogger } from 'nestjs-pino';
import { Environment } from '../config/environment.js';
import { POSTBACK_PATH } from '../earnings/earnings.controllers.js';
import { keepRawBody } from '../earnings/raw-body.js';
import { authenticate, authorize } from '../identity/sessions/access.js';
import { SessionService } from '../identity/sessions/session.service.js';
import { QueueRegistry } from '../jobs/queue-registry.js';
import { QueueName } from '../jobs/queues.js';
import { Metrics } from '../metrics/metrics.js';
import { recordRequestDurations } from '../metrics/request-metrics.js';
import { requestIdFor } from '../platform/logging.js';
import { HttpErrorFilter, requestIdOf, sendErrorBody, toErrorBody } from './error-filter.js';
import { answerWithinDeadline } from './request-deadline.js';
import { refuseCrossSiteRequests, refuseFormBodies, useDepthCheckedJson } from './request-guards.js';
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

/** Fastify, naming each request after the caller's `X-Request-Id` when it sent a sane one. */
export function createHttpAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    // X-Forwarded-For is believed only from a proxy on this machine (sign-in throttling keys on it).
    trustProxy: 'loopback',
    bodyLimit: 1024 * 1024,
    genReqId: requestIdFor,
  });
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
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });

  const instance = app.getHttpAdapter().getInstance();
  recordRequestDurations(instance, app.get(Metrics));
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
  useDepthCheckedJson(app.getHttpAdapter() as FastifyAdapter);
  // Postbacks are signed over their exact bytes.
  keepRawBody(instance, [POSTBACK_PATH]);
  await app.register(cookie);
  // Forms with files (coupon ad images, store banners); each route reads its parts itself.
  await app.register(multipart, { limits: { fields: 100, files: 4, parts: 110 } });
  // Security headers from one helmet middleware built once (the Fastify plugin rebuilt it, and
  // re-parsed the policy, on every request).
  const securityHeaders = helmet({
    // The API answers JSON; only the OpenAPI page and the queue dashboard render HTML, and both
    // ship inline scripts and styles.
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'unsafe-inline'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
      },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' }, // images are embedded by both web apps
  });
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) =>
      securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
    );
  app.enableCors({
    origin: [environment.PUBLIC_URL, environment.BACKOFFICE_URL].map((url) => new URL(url).origin),
    credentials: true,
    exposedHeaders: ['Content-Range', 'X-Request-Id', 'ETag', 'Retry-After', 'Idempotent-Replayed'],
    allowedHeaders: [
      'Content-Type',
      'Authorization',
      'X-XSRF-TOKEN',
      'X-Request-Id',
      'Range',
      'Idempotency-Key',
    ],
  });

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
  const sessions = app.get(SessionService);
  const logger = new Logger('QueueDashboard');
  await app.register(
    async (scope: FastifyInstance) => {
      // Outside Nest's router, so the guard is applied here: admins only, like /api/admin/*.
      scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        try {
          authorize(await authenticate(sessions, request), request, 'admin');
        } catch (error) {
          return sendErrorBody(reply, toErrorBody(error, requestIdOf(request), logger));
        }
      });
      await scope.register(serverAdapter.registerPlugin() as never);
    },
    { prefix: QUEUE_DASHBOARD_PATH },
  );
}
