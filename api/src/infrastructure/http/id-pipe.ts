import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';

/** A record id in a path: a positive PostgreSQL integer, or a 400 (never a database error). */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const id = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
    if (!(id >= 1 && id <= 2_147_483_647))
      throw new BadRequestException({ statusCode: 400, message: 'Unknown id.' });
    return id;
  }
}
