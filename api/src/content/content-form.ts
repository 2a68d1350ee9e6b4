import type { Type } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { readFormWithImages, validateWithImage } from '../media/image-forms.js';
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
  const { fields, images } = await readFormWithImages(request, imageFields, [
    ...READ_ONLY.filter((name) => !(name in aliases)),
    ...(options.ignored ?? []),
  ]);
  for (const [legacy, name] of Object.entries(aliases)) {
    if (legacy in fields && !(name in fields)) fields[name] = fields[legacy];
    delete fields[legacy];
  }
  const bytes = imageFields.map((field) => images[field]).find(Boolean);
  return { fields, image: bytes ? { bytes, field: 'image' } : undefined };
}

/**
 * Validates a content form; a missing image is reported with the other fields, and alone under
 * its own message. `message` replaces the general one where the spec has its own.
 */
export function validateContentForm<T extends object>(
  dto: Type<T>,
  fields: Record<string, unknown>,
  missingImage?: string,
  message?: string,
): Promise<T> {
  return validateWithImage(
    dto,
    fields,
    missingImage ? { field: 'image', message: missingImage } : undefined,
    {
      message,
      imageOnly: missingImage,
    },
  );
}
