import type { IncomingMessage } from 'node:http';
import { answerLogLevel, type Environment, REDACTED_PATHS, REQUEST_SERIALIZERS } from '@offers/api/site';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { type DestinationStream, type Logger, pino } from 'pino';

/**
 * The site server's log: JSON lines as the API writes them (its level setting, its redaction of
 * credentials and personal fields, its request line), with `service: web-public`. A request line
 * names the request by id, method and address (secret parameters' values replaced), never the
 * client's address or headers.
 */
export function siteLogger(environment: Environment, destination?: DestinationStream): Logger {
  const options = {
    level: environment.LOG_LEVEL,
    base: { service: process.env.SERVICE_NAME ?? 'web-public' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { ...REQUEST_SERIALIZERS, err: pino.stdSerializers.err },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Fastify's request lines as the API writes them: none when a request arrives, and one when it is
 * answered, at the API's level for its status (successes at debug only).
 */
export class AnswerLogController extends LogController {
  constructor(private readonly verbose: boolean) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const level = answerLogLevel(reply.statusCode, !!error, this.verbose);
    if (level === 'silent') return;
    reply.log[level](
      {
        req: request,
        res: reply,
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
        ...(error && { err: error }),
      },
      'request completed',
    );
  }
}

/**
 * The line of a page sent before Fastify (a page kept ready): written at debug level only, whose
 * check is one comparison, so the hot path builds nothing at the usual level.
 */
export function readyAnswerLogger(
  logger: Logger,
  requestId: (request: IncomingMessage) => string,
): ((request: IncomingMessage, statusCode: number, startedAt: number) => void) | undefined {
  if (!logger.isLevelEnabled('debug')) return undefined;
  return (request, statusCode, startedAt) =>
    logger.debug(
      {
        req: { id: requestId(request), method: request.method, url: request.url ?? '/' },
        res: { statusCode },
        responseTime: Math.round((performance.now() - startedAt) * 10) / 10,
        answeredBy: 'ready',
      },
      'request completed',
    );
}
