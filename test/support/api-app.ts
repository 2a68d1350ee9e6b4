import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import { AppModule } from '@offers/api/app.module';
import type { Environment } from '@offers/api/infrastructure/config/environment';
import { configureHttpApp, createHttpAdapter } from '@offers/api/infrastructure/http/configure-app';
import type { DataSource } from 'typeorm';

export interface HttpResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read response bodies loosely
  json(): any;
}

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or bytes as they are. */
  payload?: unknown;
}

export interface ApiApp {
  app: NestFastifyApplication;
  dataSource: DataSource;
  /** Base URL of the API listening on a free local port. */
  baseUrl: string;
  http: { inject(request: HttpRequest): Promise<HttpResponse> };
  /** Every JSON log line written so far. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** The real API module and HTTP set-up, served in-process (requests go through `http.inject`). */
export async function startApi(environment: Environment, extraControllers: Type[] = []): Promise<ApiApp> {
  const logs: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  const module = await Test.createTestingModule({
    imports: [AppModule.forRoot(environment, { logDestination: destination })],
    controllers: extraControllers,
  }).compile();
  const app = module.createNestApplication<NestFastifyApplication>(
    createHttpAdapter(environment.TRUSTED_PROXIES),
    { bufferLogs: true },
  );
  await configureHttpApp(app);
  await app.listen(0, '127.0.0.1');
  const baseUrl = await app.getUrl();
  return {
    app,
    dataSource: app.get<DataSource>(getDataSourceToken()),
    baseUrl,
    http: { inject: (request) => send(baseUrl, request) },
    logs,
    close: () => app.close(),
  };
}

/** Every response received in this test file, for checks that span a whole suite. */
export const receivedResponses: HttpResponse[] = [];

/** A plain HTTP/1.1 request over a real socket; headers such as Origin are sent as given. */
export function send(
  baseUrl: string,
  { method, url, headers = {}, payload }: HttpRequest,
): Promise<HttpResponse> {
  const raw = typeof payload === 'string' || Buffer.isBuffer(payload);
  const body =
    payload === undefined ? undefined : raw ? (payload as string | Buffer) : JSON.stringify(payload);
  const allHeaders = {
    ...(body !== undefined && !raw && { 'content-type': 'application/json' }),
    ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }),
    ...headers,
  };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(new URL(url, baseUrl), { method, headers: allHeaders }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk) => {
        text += chunk;
      });
      incoming.on('end', () => {
        const response = {
          statusCode: incoming.statusCode ?? 0,
          headers: incoming.headers,
          body: text,
          json: () => JSON.parse(text),
        };
        receivedResponses.push(response);
        resolve(response);
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
