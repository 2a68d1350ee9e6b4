import {
  BadRequestException,
  Controller,
  Get,
  Headers,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Query,
  Res,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { Public } from '../identity/sessions/access.js';
import { type ImageFacts, imageBytes, imageFacts, publicKey } from './media.js';
import { mediaPublicBaseUrl, objectStream, PUBLIC_CACHE_CONTROL } from './object-store.js';
import { fallbackFormat, keptVariant, madeWidthFor, VARIANT_WIDTHS } from './variants.js';

export { VARIANT_WIDTHS };

/**
 * An original served for a copy not made yet (an image stored before copies were made on storing,
 * until the move command makes them): the answer will change, so it is not kept for a year.
 */
const INTERIM_CACHE_CONTROL = 'public, max-age=3600';
/** A redirect to the bucket's public address: short, since that address is a setting. */
const REDIRECT_CACHE_CONTROL = 'public, max-age=3600';

const notFound = () => new NotFoundException({ statusCode: 404, message: 'Image not found.' });

@ApiTags('media')
@Controller('media')
export class MediaController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Image bytes, cacheable for a year: a stored image never changes under its id. `?w=` gives a
   * copy at most that wide, as WebP when the browser accepts it, made when the image was stored.
   * An image in the bucket is streamed from it, or redirected to when MEDIA_PUBLIC_BASE_URL is set.
   */
  @Public()
  @Get(':id')
  async image(
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException() })) id: string,
    @Query('w') width: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const image = await imageFacts(this.dataSource, id);
    if (!image) throw notFound();
    if (width === undefined) {
      const etag = `"${image.sha256}"`;
      reply.header('Cache-Control', PUBLIC_CACHE_CONTROL).header('ETag', etag);
      if (ifNoneMatch === etag) return reply.status(304).send();
      return this.original(reply, id, image);
    }
    const w = Number(width);
    if (!VARIANT_WIDTHS.includes(w as (typeof VARIANT_WIDTHS)[number])) {
      throw new BadRequestException({
        statusCode: 400,
        message: `w is one of ${VARIANT_WIDTHS.join(', ')}.`,
      });
    }
    reply.header('Vary', 'Accept');
    if (image.variantWidths === null) {
      reply.header('Cache-Control', INTERIM_CACHE_CONTROL);
      return this.original(reply, id, image);
    }
    const format = accept?.includes('image/webp') ? 'image/webp' : fallbackFormat(image.contentType);
    const made = madeWidthFor(image.variantWidths, w);
    const etag = `"${image.sha256}-${made}-${format.slice(6)}"`;
    reply.header('Cache-Control', PUBLIC_CACHE_CONTROL).header('ETag', etag);
    if (ifNoneMatch === etag) return reply.status(304).send();
    if (image.storage === 's3') return this.fromBucket(reply, publicKey(image.sha256, format, made), format);
    const bytes = await keptVariant(this.dataSource, id, made, format);
    if (bytes) return reply.type(format).send(bytes);
    // A copy missing from the database (removed by hand): the original, not kept for long.
    reply.header('Cache-Control', INTERIM_CACHE_CONTROL).removeHeader('ETag');
    return this.original(reply, id, image);
  }

  private async original(reply: FastifyReply, id: string, image: ImageFacts) {
    if (image.storage === 's3')
      return this.fromBucket(reply, publicKey(image.sha256, image.contentType), image.contentType);
    return reply.type(image.contentType).send(await imageBytes(this.dataSource, id));
  }

  /** Redirects to the object's public address, or streams it with its length. */
  private async fromBucket(reply: FastifyReply, key: string, contentType: string) {
    const base = mediaPublicBaseUrl();
    if (base) {
      return reply
        .removeHeader('ETag')
        .header('Cache-Control', REDIRECT_CACHE_CONTROL)
        .redirect(`${base}/${key}`, 302);
    }
    const object = await objectStream(key);
    if (!object) throw notFound();
    if (object.length !== undefined) reply.header('Content-Length', object.length);
    return reply.type(contentType).send(object.body);
  }
}
