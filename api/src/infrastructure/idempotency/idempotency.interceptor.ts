import {
  type CallHandler,
  ConflictException,
  type ExecutionContext,
  HttpException,
  Injectable,
  Logger,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { catchError, from, mergeMap, type Observable, of, switchMap, throwError } from 'rxjs';
import { IDEMPOTENCY } from '../../rules/http.js';
import type { RequestWithAccount } from '../http/access.js';
import { toErrorBody } from '../http/error-filter.js';
import { handlerStatus } from '../http/request-deadline.js';
import { IdempotencyStore, type StoredAnswer } from './idempotency-store.js';
import { NOT_REPLAYED } from './not-replayed.js';
import {
  type IdempotentRequest,
  type ReceivedParts,
  ReplayAnswer,
  readIdempotencyKey,
  requestFingerprint,
} from './request-idempotency.js';

const COMMAND_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Headers of an answer that are part of what it says; the rest (cookies, CORS, ids) are per request. */
const KEPT_HEADERS = ['content-type', 'content-range', 'location', 'etag', 'last-modified', 'cache-control'];

/**
 * Answers that are not replayed: a server failure or a 503 (the retry should run again), a 429
 * (it may be let through later), and refusals that depend on the credentials sent, not the request.
 */
const storable = (status: number) => status < 500 && ![401, 403, 408, 429].includes(status);

const quiet = { error: () => undefined, warn: () => undefined } as unknown as Logger;

/**
 * `Idempotency-Key` on every command route (POST, PUT, PATCH, DELETE): the first request with a
 * key takes it, runs, and its answer is kept a day; a retry with the same key by the same caller
 * gets that answer again (`Idempotent-Replayed: true`) without running, a different request with
 * the key gets 422, and a retry while the first still runs gets 409 with Retry-After. The caller
 * is the signed-in account, or the client address for visitors. The real outcome is kept even
 * when the client was answered 503 at the request timeout, so the retry learns what happened.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly store: IdempotencyStore,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<RequestWithAccount & IdempotentRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    if (!COMMAND_METHODS.has(request.method)) return next.handle();
    const key = readIdempotencyKey(request.headers[IDEMPOTENCY.header]);
    if (key === undefined || this.reflector.get<boolean>(NOT_REPLAYED, context.getHandler())) {
      return next.handle();
    }
    const caller = request.account
      ? `${request.account.role}:${request.account.id}`
      : `visitor:${request.ip}`;
    let claimed = false;
    const claim = async (body: unknown) => {
      const outcome = await this.store.claim(
        caller,
        key,
        requestFingerprint(request.method, request.url, body),
      );
      switch (outcome.outcome) {
        case 'claimed':
          claimed = true;
          return;
        case 'replay':
          throw new ReplayAnswer(outcome.answer);
        case 'different-request':
          throw new HttpException({ statusCode: 422, message: IDEMPOTENCY.messages.differentRequest }, 422);
        case 'in-progress':
          reply.header('retry-after', String(IDEMPOTENCY.retryAfterSeconds));
          throw new ConflictException({ statusCode: 409, message: IDEMPOTENCY.messages.inProgress });
      }
    };
    // A multipart body is read by the handler itself (readForm), which claims with the parts it read.
    let ready = Promise.resolve();
    if (request.isMultipart?.()) request.idempotency = { claimForm: (parts: ReceivedParts) => claim(parts) };
    else ready = claim(request.body);

    return from(ready).pipe(
      switchMap(() => next.handle()),
      mergeMap(async (result) => {
        if (claimed) await this.keep(caller, key, answerOf(request, reply, result));
        return result;
      }),
      catchError((error: unknown) => {
        if (error instanceof ReplayAnswer) return of(replay(reply, error.answer));
        if (!claimed) return throwError(() => error);
        const body = toErrorBody(error, undefined, quiet);
        const answer = {
          status: body.statusCode,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify(body),
        };
        return from(this.keep(caller, key, answer)).pipe(switchMap(() => throwError(() => error)));
      }),
    );
  }

  /** Keeps an answer worth replaying, or frees the key for a retry that should run again. */
  private async keep(caller: string, key: string, answer: StoredAnswer | undefined): Promise<void> {
    try {
      if (answer && storable(answer.status)) await this.store.complete(caller, key, answer);
      else await this.store.release(caller, key);
    } catch (error) {
      // The command's own answer still goes out; the key stays held until it counts as abandoned.
      this.logger.warn(
        { error: (error as Error).message },
        'Could not keep the answer of an idempotent request',
      );
    }
  }
}

/** The answer a handler's result becomes, or undefined when it is not text or JSON (a stream, bytes). */
function answerOf(request: FastifyRequest, reply: FastifyReply, result: unknown): StoredAnswer | undefined {
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  let body: string;
  if (result === undefined || result === null) body = '';
  else if (typeof result === 'string') body = result;
  else if (Buffer.isBuffer(result) || typeof (result as { pipe?: unknown }).pipe === 'function')
    return undefined;
  else if (typeof result === 'object' && !(result instanceof Uint8Array)) {
    body = JSON.stringify(result);
    headers['content-type'] ??= 'application/json; charset=utf-8';
  } else return undefined;
  return { status: handlerStatus(request, reply), headers, body };
}

function replay(reply: FastifyReply, answer: StoredAnswer): string {
  reply.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  reply.header('idempotent-replayed', 'true');
  return answer.body;
}
