import { BadRequestException, type Type } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { readForm, validateForm } from '../http/forms.js';
import { INVALID_INPUT_MESSAGE } from '../http/validation.js';
import { takeTextImage } from '../media/image-sources.js';
import { imageLimit } from '../media/images.js';
import type { UploadedImage } from './commands/content-commands.js';

export interface ContentFormOptions {
  /** The older client's field names and the API's, e.g. `{ postion: 'position', data: 'image' }`. */
  aliases?: Record<string, string>;
  /** Fields sent by the older client or by react-admin that carry nothing to change. */
  ignored?: readonly string[];
}

/** Fields a record shows but no form changes; react-admin sends the whole record back on save. */
const READ_ONLY = ['id', 'imageUrl', 'createdAt', 'updatedAt', 'uploadedAt'];

/**
 * Reads a content form (multipart or JSON), with the image as a file or as text (data URL,
 * base64, URL) under `image` or one of its older names.
 */
export async function readContentForm(
  request: FastifyRequest,
  options: ContentFormOptions,
): Promise<{ fields: Record<string, unknown>; image?: UploadedImage }> {
  const aliases = options.aliases ?? {};
  const imageFields = ['image', ...Object.keys(aliases).filter((name) => aliases[name] === 'image')];
  const { fields, files } = await readForm(request, imageFields, imageLimit().bytes + 1, [
    ...READ_ONLY.filter((name) => !(name in aliases)),
    ...(options.ignored ?? []),
  ]);
  for (const [legacy, name] of Object.entries(aliases)) {
    if (legacy in fields && !(name in fields)) fields[name] = fields[legacy];
    delete fields[legacy];
    if (files[legacy] && !files[name]) files[name] = files[legacy];
  }
  // The older client sent the text "null" for "no image".
  if (fields.image === 'null') delete fields.image;
  const bytes = files.image ?? (await takeTextImage(fields, 'image'));
  return { fields, image: bytes && { bytes, field: 'image' } };
}

/**
 * Validates a content form. A missing image is reported with the other fields, so the admin sees
 * every problem at once; `message` replaces the general one where the spec has its own.
 */
export async function validateContentForm<T extends object>(
  dto: Type<T>,
  fields: Record<string, unknown>,
  missingImage?: string,
  message?: string,
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
  if (missingImage) errors.image = [missingImage];
  if (Object.keys(errors).length > 0) {
    const onlyImage = Object.keys(errors).length === 1 && missingImage;
    throw new BadRequestException({
      statusCode: 400,
      message: message ?? (onlyImage ? missingImage : INVALID_INPUT_MESSAGE),
      errors,
    });
  }
  return form as T;
}
