import { BadRequestException, type Type } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { readForm, validateForm } from '../infrastructure/http/forms.js';
import { INVALID_INPUT_MESSAGE } from '../infrastructure/http/validation.js';
import { takeTextImage } from './image-sources.js';
import { imageLimit } from './images.js';

/**
 * A form's fields and its images (files, or text in the older client's ways), image fields
 * removed from the fields. JSON null for an image means "remove it" (null); a missing or empty
 * field means "keep it" (undefined).
 */
export async function readFormWithImages(
  request: FastifyRequest,
  imageFields: readonly string[],
  ignored: readonly string[] = [],
): Promise<{ fields: Record<string, unknown>; images: Record<string, Buffer | null | undefined> }> {
  const { fields, files } = await readForm(request, imageFields, imageLimit().bytes + 1, ignored);
  const images: Record<string, Buffer | null | undefined> = {};
  for (const field of imageFields) {
    const cleared = fields[field] === null;
    images[field] = files[field] ?? (await takeTextImage(fields, field)) ?? (cleared ? null : undefined);
  }
  return { fields, images };
}

export interface FormMessages {
  /** Replaces the general message of a refused form where the spec has its own. */
  message?: string;
  /** The message when the missing image is the form's only fault. */
  imageOnly?: string;
}

/**
 * Validates the fields; a missing required image is reported with the other fields' errors, so
 * the sender sees every problem at once.
 */
export async function validateWithImage<T extends object>(
  dto: Type<T>,
  fields: Record<string, unknown>,
  missingImage?: { field: string; message: string },
  messages: FormMessages = {},
): Promise<T> {
  let form: T | undefined;
  const errors: Record<string, string[]> = {};
  try {
    form = await validateForm(dto, fields);
  } catch (error) {
    const details =
      error instanceof BadRequestException && (error.getResponse() as { errors?: object }).errors;
    if (!details) throw error;
    Object.assign(errors, details);
  }
  if (missingImage) errors[missingImage.field] = [missingImage.message];
  if (Object.keys(errors).length === 0) return form as T;
  const imageOnly = missingImage && Object.keys(errors).length === 1 ? messages.imageOnly : undefined;
  throw new BadRequestException({
    statusCode: 400,
    message: messages.message ?? imageOnly ?? INVALID_INPUT_MESSAGE,
    errors,
  });
}
