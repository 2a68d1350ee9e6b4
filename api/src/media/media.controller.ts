import { Controller, Get, Headers, NotFoundException, Param, ParseUUIDPipe, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import type { DataSource } from 'typeorm';
import { Public } from '../identity/sessions/access.js';

@ApiTags('media')
@Controller('media')
export class MediaController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Image bytes, cacheable for a year: a stored image never changes under its id. */
  @Public()
  @Get(':id')
  async image(
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException() })) id: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const [image] = await this.dataSource.query(
      'SELECT sha256, content_type, bytes FROM media WHERE id = $1',
      [id],
    );
    if (!image) throw new NotFoundException({ statusCode: 404, message: 'Image not found.' });
    const etag = `"${image.sha256}"`;
    reply.header('ETag', etag).header('Cache-Control', 'public, max-age=31536000, immutable');
    if (ifNoneMatch === etag) return reply.status(304).send();
    return reply.type(image.content_type).send(image.bytes);
  }
}
