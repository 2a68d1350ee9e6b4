import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, Get, Post } from '@nestjs/common';
import { Public } from '@offers/api/identity/sessions/access';
import { OperationsService } from '@offers/api/infrastructure/health/operations.module';
import { INTERNAL_ERROR_MESSAGE } from '@offers/api/infrastructure/http/error-filter';
import { INVALID_INPUT_MESSAGE } from '@offers/api/infrastructure/http/validation';
import { STRICT_TRANSPORT_SECURITY } from '@offers/api/rules/http';
import { IsEmail, IsString, MinLength } from 'class-validator';
import { type ApiApp, send, startApi } from '../support/api-app.js';
import { freePort } from '../support/processes.js';
import { createTestEnvironment, type TestEnvironment } from '../support/test-environment.js';

class SubscriptionProbe {
  @IsString()
  @MinLength(4, { message: 'Enter at least 4 characters.' })
  name: string;

  @IsEmail({}, { message: 'Please enter a valid email address.' })
  email: string;
}

/** Routes that exist only in this test, to exercise the conventions every controller gets. */
@Public()
@Controller('probe')
class ProbeController {
  @Post('subscriptions')
  subscribe(@Body() body: SubscriptionProbe) {
    return { subscribed: body.email };
  }

  @Get('failure')
  fail(): never {
    throw new Error('connection string postgres://secret@db leaked');
  }
}

let test: TestEnvironment;
let api: ApiApp;

beforeAll(async () => {
  test = await createTestEnvironment('http', { LOG_LEVEL: 'info' });
  api = await startApi(test.environment, [ProbeController]);
});

afterAll(async () => {
  await api?.close();
  await test?.cleanup();
});

describe('input validation', () => {
  it('answers 400 with every field error in the spec words', async () => {
    const response = await api.http.inject({
      method: 'POST',
      url: '/api/probe/subscriptions',
      payload: { name: 'Jo' },
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      message: INVALID_INPUT_MESSAGE,
      errors: {
        name: ['Enter at least 4 characters.'],
        email: ['Please enter a valid email address.'],
      },
    });
  });

  it('refuses fields it does not know', async () => {
    const response = await api.http.inject({
      method: 'POST',
      url: '/api/probe/subscriptions',
      payload: { name: 'Asha', email: 'asha@example.in', role: 'admin' },
    });

    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ role: ['This field is not accepted.'] });
  });

  it('accepts a valid body', async () => {
    const response = await api.http.inject({
      method: 'POST',
      url: '/api/probe/subscriptions',
      payload: { name: 'Asha', email: 'asha@example.in' },
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ subscribed: 'asha@example.in' });
  });

  it.each([
    ['malformed JSON', 'application/json', '{"name": ', 400],
    ['an unsupported media type', 'text/xml', '<name/>', 415],
  ])('answers %s with a 4xx in the same shape', async (_case, contentType, payload, status) => {
    const response = await api.http.inject({
      method: 'POST',
      url: '/api/probe/subscriptions',
      headers: { 'content-type': contentType },
      payload,
    });

    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ statusCode: status, message: expect.any(String) });
  });

  it('answers an unknown route with 404 in the same shape', async () => {
    const response = await api.http.inject({ method: 'GET', url: '/api/nowhere' });

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ statusCode: 404, message: 'Cannot GET /api/nowhere' });
  });
});

describe('an unexpected error', () => {
  it('is answered 500 without internals and logged with its request id', async () => {
    const response = await api.http.inject({ method: 'GET', url: '/api/probe/failure' });

    expect(response.statusCode).toBe(500);
    const requestId = response.headers['x-request-id'];
    expect(response.json()).toEqual({ statusCode: 500, message: INTERNAL_ERROR_MESSAGE, requestId });
    expect(response.body).not.toContain('secret');
    const logged = api.logs.find((line) => line.requestId === requestId && line.level === 50);
    expect(logged).toMatchObject({ err: { message: 'connection string postgres://secret@db leaked' } });
    expect(String((logged?.err as { stack?: string } | undefined)?.stack)).toContain('ProbeController.fail');
  });
});

describe('request ids', () => {
  it('keeps a well-formed id from the caller and makes one otherwise', async () => {
    const given = await api.http.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    const made = await api.http.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'bad id!' },
    });

    expect(given.headers['x-request-id']).toBe('abc-123');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('tags each request log line with it', async () => {
    const response = await api.http.inject({ method: 'POST', url: '/api/probe/subscriptions', payload: {} });
    const requestId = response.headers['x-request-id'];

    expect(api.logs).toContainEqual(
      expect.objectContaining({ req: expect.objectContaining({ id: requestId }), res: { statusCode: 400 } }),
    );
  });
});

describe('browsers', () => {
  const publicSite = 'http://localhost:5173';

  it('lets the two web apps call with credentials and read Content-Range', async () => {
    const preflight = await api.http.inject({
      method: 'OPTIONS',
      url: '/api/probe/subscriptions',
      headers: { origin: publicSite, 'access-control-request-method': 'POST' },
    });
    const read = await api.http.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'http://localhost:5174' },
    });

    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(publicSite);
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(read.headers['access-control-allow-origin']).toBe('http://localhost:5174');
    expect(String(read.headers['access-control-expose-headers'])).toContain('Content-Range');
  });

  it('gives other origins no access', async () => {
    const response = await api.http.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://evil.example' },
    });

    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('sends the security headers, and no HSTS over plain http', async () => {
    const response = await api.http.inject({ method: 'GET', url: '/api/health' });
    const html = await api.http.inject({ method: 'GET', url: '/api/docs' });

    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(test.environment.PUBLIC_URL).toMatch(/^http:/);
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(html.headers['strict-transport-security']).toBeUndefined();
  });

  it("gives HTML a document's policies, and JSON only what a JSON answer needs", async () => {
    const html = await api.http.inject({ method: 'GET', url: '/api/docs' });
    const json = await api.http.inject({ method: 'GET', url: '/api/health' });

    expect(html.headers['content-security-policy']).toContain("default-src 'self'");
    expect(html.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(html.headers['x-content-type-options']).toBe('nosniff');
    expect(json.headers['content-security-policy']).toBeUndefined();
    expect(json.headers['x-download-options']).toBeUndefined();
    expect(json.headers['referrer-policy']).toBe('no-referrer');
  });
});

describe('documentation and operations', () => {
  it('serves OpenAPI at /api/docs', async () => {
    const page = await api.http.inject({ method: 'GET', url: '/api/docs' });
    const document = await api.http.inject({ method: 'GET', url: '/api/docs/openapi.json' });

    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(Object.keys(document.json().paths)).toContain('/api/health');
  });

  it('answers its status alone on the public port; the details only on the operations port', async () => {
    const health = await api.http.inject({ method: 'GET', url: '/api/health' });
    const ready = await send(api.baseUrl, { method: 'GET', url: '/api/health/ready' });
    const operations = await fetch(`${api.app.get(OperationsService).server.url}/health/ready`);

    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
    expect(operations.status).toBe(200);
    expect(await operations.json()).toMatchObject({
      status: 'ready',
      reasons: [],
      checks: {
        database: { up: true },
        redis: { up: true },
        pools: { main: expect.any(Object) },
        outbox: { unpublished: 0 },
        queues: { 'domain-events': { waiting: 0, active: 0, delayed: 0, failed: 0 } },
      },
    });
  });

  it('keeps the queue dashboard for admins', async () => {
    const response = await api.http.inject({ method: 'GET', url: '/api/admin/queues' });

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ statusCode: 401, message: 'Please sign in to continue.' });
  });
});

describe('with Redis unreachable', () => {
  let degraded: ApiApp;

  beforeAll(async () => {
    const unreachable = `redis://127.0.0.1:${await freePort()}`;
    degraded = await startApi({ ...test.environment, REDIS_URL: unreachable });
  });

  afterAll(async () => {
    await degraded?.close();
  });

  it('reports 503 with its status alone in public, naming Redis as down on the operations port', async () => {
    const response = await degraded.http.inject({ method: 'GET', url: '/api/health' });
    const ready = await degraded.http.inject({ method: 'GET', url: '/api/health/ready' });
    const operations = await fetch(`${degraded.app.get(OperationsService).server.url}/health/ready`);

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ status: 'error' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable' });
    expect(operations.status).toBe(503);
    // biome-ignore lint/suspicious/noExplicitAny: the report is read loosely
    const report: any = await operations.json();
    expect(report.checks.database).toMatchObject({ up: true });
    expect(report.checks.redis).toMatchObject({ up: false });
    expect(report.reasons.join(' ')).toMatch(/redis/i);
  });
});

describe('served over https', () => {
  let secure: ApiApp;

  beforeAll(async () => {
    secure = await startApi({ ...test.environment, PUBLIC_URL: 'https://offers.example.in' });
  });

  afterAll(async () => {
    await secure?.close();
  });

  it('sends HSTS with every answer: JSON, HTML, errors, and ready answers sent before routing', async () => {
    await send(secure.baseUrl, { method: 'GET', url: '/api/coupons' });
    const answers = [
      await secure.http.inject({ method: 'GET', url: '/api/health' }),
      await secure.http.inject({ method: 'GET', url: '/api/docs' }),
      await secure.http.inject({ method: 'GET', url: '/api/nowhere' }),
      await secure.http.inject({ method: 'GET', url: '/api/coupons?q=%00' }),
      await send(secure.baseUrl, { method: 'GET', url: '/api/coupons' }),
    ];
    for (const answer of answers) {
      expect(answer.headers['strict-transport-security']).toBe(STRICT_TRANSPORT_SECURITY);
    }
    expect(STRICT_TRANSPORT_SECURITY).toBe('max-age=31536000; includeSubDomains');
  });
});
