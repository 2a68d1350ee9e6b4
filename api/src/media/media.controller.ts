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
import { imageBytes, imageFacts } from './media.js';
import { imageVariant, VARIANT_WIDTHS } from './variants.js';

export { VARIANT_WIDTHS };

@ApiTags('media')
@Controller('media')
export class MediaController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Image bytes, cacheable for a year: a stored image never changes under its id. `?w=` gives a
   * copy at most that wide, as WebP when the browser accepts it, made once and kept.
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
    if (!image) throw new NotFoundException({ statusCode: 404, message: 'Image not found.' });
    reply.header('Cache-Control', 'public, max-age=31536000, immutable');
    if (width === undefined) {
      const etag = `"${image.sha256}"`;
      reply.header('ETag', etag);
      if (ifNoneMatch === etag) return reply.status(304).send();
      return reply.type(image.contentType).send(await imageBytes(this.dataSource, id));
    }
    const w = Number(width);
    if (!VARIANT_WIDTHS.includes(w as (typeof VARIANT_WIDTHS)[number])) {
      throw new BadRequestException({
        statusCode: 400,
        message: `w is one of ${VARIANT_WIDTHS.join(', ')}.`,
      });
    }
    const format = accept?.includes('image/webp')
      ? 'image/webp'
      : image.contentType === 'image/jpeg'
        ? 'image/jpeg'
        : 'image/png';
    const etag = `"${image.sha256}-${w}-${format.slice(6)}"`;
    reply.header('ETag', etag).header('Vary', 'Accept');
    if (ifNoneMatch === etag) return reply.status(304).send();
    return reply.type(format).send(await this.variant(id, w, format));
  }

  private variant(id: string, width: number, format: string): Promise<Buffer> {
    return imageVariant(this.dataSource, id, width, format);
  }
}
