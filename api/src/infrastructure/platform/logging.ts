import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Environment } from '../config/environment.js';

const REQUEST_ID = /^[\w.:-]{1,100}$/;

/** A caller's request id is kept when it looks like one; otherwise a new one is made. */
export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** Fields whose values never reach a log line: credentials, tokens and personal data. */
const SECRET_FIELDS = [
  'password',
  'currentPassword',
  'newPassword',
  'passwordHash',
  'password_hash',
  'token',
  'xsrfToken',
  'secret',
  'postbackSecret',
  'credential',
  'email',
  'emailAddress',
  'EmailAddress',
  'mobile',
  'mobileNumber',
  'address',
  'userName',
  'merchantName',
  // A client's address is personal data; no log line needs it (rate limits keep their own counts).
  'ip',
  'remoteAddress',
  'clientAddress',
];
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-xsrf-token"]',
  'req.headers["x-signature"]',
  'req.headers["x-forwarded-for"]',
  'res.headers["set-cookie"]',
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`, `*.body.${field}`]),
];

/**
 * Query parameters that carry a secret: a network's postback token (its source's secret) and the
 * signed tokens of unsubscribe and confirmation links. A logged address keeps their names only.
 */
const SECRET_PARAMETERS = /([?&](?:token|secret|signature)=)[^&#]*/gi;

/** The address as a log line may show it: secret parameters' values replaced. */
export const loggedUrl = (url: string) => url.replace(SECRET_PARAMETERS, '$1[redacted]');

/**
 * What a request line says of the request and its answer: the request's id, method and address
 * (secret parameters' values replaced), the status; never headers, cookies or the client's address.
 */
export const REQUEST_SERIALIZERS = {
  req: (request: { id: string; method: string; url: string }) => ({
    id: request.id,
    method: request.method,
    url: loggedUrl(request.url),
  }),
  res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
};

/**
 * The level a request's line is logged at. Successful requests are logged only at debug level: at
 * shop-front traffic the failures are what matter, and building every line costs a noticeable
 * share of throughput. A 503 is a bounded wait that ran out (busy, not broken): whoever answered
 * it logged why.
 */
export function answerLogLevel(
  statusCode: number,
  failed: boolean,
  verbose: boolean,
): 'error' | 'warn' | 'debug' | 'silent' {
  if ((failed || statusCode >= 500) && statusCode !== 503) return 'error';
  if (statusCode >= 400) return 'warn';
  return verbose ? 'debug' : 'silent';
}

export function loggerOptions(environment: Environment, destination?: DestinationStream): Params {
  const verbose = environment.LOG_LEVEL === 'debug' || environment.LOG_LEVEL === 'trace';
  const options: Exclude<Params['pinoHttp'], DestinationStream | unknown[] | undefined> = {
    level: environment.LOG_LEVEL,
    // The HTTP server has already named the request (see createHttpAdapter).
    genReqId: (request) => (request as IncomingMessage & { id: string }).id ?? requestIdFor(request),
    base: { service: process.env.SERVICE_NAME ?? 'api' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    customLogLevel: (_request, response, error) => answerLogLevel(response.statusCode, !!error, verbose),
    // Health probes every few seconds would bury the useful lines.
    autoLogging: { ignore: (request) => request.url?.startsWith('/api/health') ?? false },
    serializers: REQUEST_SERIALIZERS,
  };
  return {
    pinoHttp: destination ? [options, destination] : options,
    // The hot public reads skip the request logger (and its per-request context) entirely;
    // their failures still reach the log through the error filter.
    exclude: [{ method: RequestMethod.GET, path: 'coupons' }],
  };
}
