import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVICE_BUSY } from '../../rules/http.js';
import { busyReason } from '../database/busy-errors.js';
import { TooManyRequests } from './rate-limits.js';
import type { FieldErrors } from './validation.js';

export interface ErrorBody {
  statusCode: number;
  message: string;
  errors?: FieldErrors;
  requestId?: string;
}

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';

/** Errors raised by fastify itself (bad JSON, unsupported media type, body too large) carry a 4xx code. */
function isClientErrorFromFramework(error: unknown): error is Error & { statusCode: number } {
  const status = (error as { statusCode?: unknown })?.statusCode;
  return error instanceof Error && typeof status === 'number' && status >= 400 && status < 500;
}

/** Turns any thrown value into the API's error body; internals never leave the server. */
export function toErrorBody(error: unknown, requestId: string | undefined, logger: Logger): ErrorBody {
  if (error instanceof HttpException) {
    const statusCode = error.getStatus();
    const response = error.getResponse();
    if (typeof response === 'string') return { statusCode, message: response };
    const { message, errors } = response as { message?: unknown; errors?: FieldErrors };
    const text = Array.isArray(message)
      ? message.join(' ')
      : typeof message === 'string'
        ? message
        : error.message;
    return errors ? { statusCode, message: text, errors } : { statusCode, message: text };
  }
  if (isClientErrorFromFramework(error)) {
    return { statusCode: error.statusCode, message: error.message.replace(/^FST_\w+: /, '') };
  }
  const busy = busyReason(error);
  if (busy) {
    // Expected under load or a held lock: a warning with the reason, not an error with a stack.
    logger.warn({ requestId, reason: busy }, 'Service busy');
    return busyBody();
  }
  logger.error({ err: error, requestId }, 'Unhandled error');
  return { statusCode: HttpStatus.INTERNAL_SERVER_ERROR, message: INTERNAL_ERROR_MESSAGE, requestId };
}

export function busyBody(): ErrorBody {
  return { statusCode: HttpStatus.SERVICE_UNAVAILABLE, message: SERVICE_BUSY.message };
}

/** Sends an error body; a 503 says when to try again. */
export function sendErrorBody(reply: FastifyReply, body: ErrorBody): FastifyReply {
  if (body.statusCode === HttpStatus.SERVICE_UNAVAILABLE) {
    reply.header('retry-after', String(SERVICE_BUSY.retryAfterSeconds));
  }
  return reply.status(body.statusCode).send(body);
}

@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpError');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const body = toErrorBody(exception, requestIdOf(request), this.logger);
    // Past the request timeout the 503 has gone out already; the late outcome is only logged.
    if (reply.sent || reply.raw.headersSent) return;
    if (exception instanceof TooManyRequests)
      reply.header('retry-after', String(exception.retryAfterSeconds));
    void sendErrorBody(reply, body);
  }
}

export function requestIdOf(request: FastifyRequest): string | undefined {
  return (request.raw as { id?: string }).id ?? request.id;
}
