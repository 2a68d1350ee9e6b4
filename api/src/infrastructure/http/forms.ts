import type {} from '@fastify/multipart';
import { BadRequestException, PayloadTooLargeException, type Type } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { HTTP_MESSAGES } from '../../rules/http.js';
import {
  fileDigest,
  type IdempotentRequest,
  type ReceivedParts,
} from '../idempotency/request-idempotency.js';
import { holdsUnreadableText, isUnreadableText } from './unreadable-text.js';
import { createValidationPipe, UNKNOWN_FIELD_MESSAGE } from './validation.js';

export interface SubmittedForm {
  fields: Record<string, unknown>;
  files: Record<string, Buffer>;
}

/**
 * Older clients send PascalCase form fields (CouponName, MerchantURL); the API's names are
 * camelCase. Keys are mapped one way for both.
 */
export function camelKey(key: string): string {
  const words = key.replace(/URL/g, 'Url');
  return words.charAt(0).toLowerCase() + words.slice(1);
}

/**
 * Reads a JSON body or a multipart form (files held in memory, each at most `maxFileBytes`).
 * Repeated fields become arrays. A file in a field not listed in `fileFields` is refused.
 */
export async function readForm(
  request: FastifyRequest,
  fileFields: readonly string[],
  maxFileBytes: number,
  ignoredFields: readonly string[] = [],
): Promise<SubmittedForm> {
  const fields: Record<string, unknown> = {};
  const files: Record<string, Buffer> = {};
  const add = (key: string, value: unknown) => {
    const name = camelKey(key);
    if (ignoredFields.includes(name)) return;
    fields[name] = name in fields ? [fields[name], value].flat() : value;
  };
  if (!request.isMultipart()) {
    const body = request.body;
    if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
      throw new BadRequestException({ statusCode: 400, message: 'Send the form as an object.' });
    }
    for (const [key, value] of Object.entries(body ?? {})) add(key, value);
    return { fields, files };
  }
  // The parts as sent, for a request with an Idempotency-Key (see IdempotencyInterceptor).
  const received: ReceivedParts = [];
  try {
    for await (const part of request.parts({
      limits: { fileSize: maxFileBytes, files: fileFields.length, fields: 100 },
    })) {
      if (part.type === 'file') {
        const name = camelKey(part.fieldname);
        if (!fileFields.includes(name)) {
          await part.toBuffer();
          throw new BadRequestException({
            statusCode: 400,
            message: UNKNOWN_FIELD_MESSAGE,
            errors: { [name]: [UNKNOWN_FIELD_MESSAGE] },
          });
        }
        const bytes = await part.toBuffer();
        received.push([part.fieldname, fileDigest(bytes)]);
        if (bytes.length > 0) files[name] = bytes;
      } else {
        // The same refusal as for JSON bodies (refuseUnreadableText), which cannot see parts.
        if (isUnreadableText(part.fieldname) || holdsUnreadableText(part.value)) {
          throw new BadRequestException({ statusCode: 400, message: HTTP_MESSAGES.unreadableText });
        }
        received.push([part.fieldname, String(part.value)]);
        add(part.fieldname, part.value);
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new PayloadTooLargeException({
        statusCode: 413,
        message: `A file must be at most ${Math.round(maxFileBytes / 1048576)} MB.`,
      });
    }
    if ((error as { code?: string }).code?.startsWith('FST_')) {
      throw new BadRequestException({ statusCode: 400, message: (error as Error).message });
    }
    throw error;
  }
  // Before anything is changed: a retry of a request already answered stops here.
  await (request as FastifyRequest & IdempotentRequest).idempotency?.claimForm(received);
  return { fields, files };
}

const pipe = createValidationPipe();

/** Validates plain fields against a DTO class with the same rules and error shape as a JSON body. */
export function validateForm<T extends object>(dto: Type<T>, fields: Record<string, unknown>): Promise<T> {
  return pipe.transform(fields, { type: 'body', metatype: dto });
}
