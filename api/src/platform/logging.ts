import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { Environment } from '../config/environment.js';

const REQUEST_ID = /^[\w.:-]{1,100}$/;

/** A caller's request id is kept when it looks like one; otherwise a new one is made. */
export function requestIdFor(request: IncomingMessage, response: ServerResponse): string {
  const given = request.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  response.setHeader('x-request-id', id);
  return id;
}

export function loggerOptions(environment: Environment): Params {
  return {
    pinoHttp: {
      level: environment.LOG_LEVEL,
      genReqId: requestIdFor,
      customProps: () => ({ service: process.env.SERVICE_NAME ?? 'api' }),
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-xsrf-token"]'],
      // Health probes every few seconds would bury the useful lines.
      autoLogging: { ignore: (request) => request.url?.startsWith('/api/health') ?? false },
      serializers: {
        req: (request: { id: string; method: string; url: string }) => ({
          id: request.id,
          method: request.method,
          url: request.url,
        }),
      },
    },
  };
}
