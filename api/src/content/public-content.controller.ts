import { Controller, Get, Header, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { Public } from '../identity/sessions/access.js';
import { Trim } from '../infrastructure/http/field-decorators.js';
import {
  BANNER_POSITIONS,
  type BannerPosition,
  CONTENT_DEFAULTS,
  CONTENT_MESSAGES as M,
} from '../rules/content.js';
import { HomePageQueries } from './queries/home-content.js';
import { HomeContentCache } from './queries/home-content-cache.js';

class BannerQuery {
  @IsOptional()
  @IsIn(BANNER_POSITIONS, { message: M.positionInvalid })
  position?: BannerPosition;

  /** The older client's spelling. */
  @IsOptional()
  @IsIn(BANNER_POSITIONS, { message: M.positionInvalid })
  postion?: BannerPosition;
}

class FlashTextQuery {
  @IsOptional()
  @Trim()
  @IsString({ message: M.positionRequired })
  @IsNotEmpty({ message: M.positionRequired })
  @MaxLength(40, { message: M.positionRequired })
  position?: string;
}

/**
 * What the home page shows, answered as ready bytes that change only when the content or the
 * coupon lists do (see HomeContentCache).
 */
@ApiTags('content')
@Public()
@Controller()
export class PublicContentController {
  constructor(
    private readonly home: HomePageQueries,
    private readonly cache: HomeContentCache,
  ) {}

  /** Heroes, banners, the 16 top coupons, seasonal offers, flash text, best-offer banner. */
  @Get('home')
  @Header('Content-Type', 'application/json; charset=utf-8')
  homePage(@Req() request: FastifyRequest): Promise<Buffer> {
    return this.cache.get('home', request.url, async () => JSON.stringify(await this.home.homePage()));
  }

  @Get('heroes')
  @Header('Content-Type', 'application/json; charset=utf-8')
  heroes(@Req() request: FastifyRequest): Promise<Buffer> {
    return this.cache.get('heroes', request.url, async () =>
      JSON.stringify((await this.home.content()).heroes),
    );
  }

  /** The banners of one position, or of every position by name when none is given. */
  @Get('banners')
  @Header('Content-Type', 'application/json; charset=utf-8')
  banners(@Query() query: BannerQuery, @Req() request: FastifyRequest): Promise<Buffer> {
    const position = query.position ?? query.postion;
    return this.cache.get(`banners:${position ?? ''}`, request.url, async () => {
      const { banners } = await this.home.content();
      return JSON.stringify(position ? banners[position] : banners);
    });
  }

  /** The flash text shown at a position (`toFlash` by default), or null when there is none. */
  @Get('flash-text')
  @Header('Content-Type', 'application/json; charset=utf-8')
  flashText(@Query() query: FlashTextQuery, @Req() request: FastifyRequest): Promise<Buffer> {
    const position = query.position || CONTENT_DEFAULTS.flashPosition;
    return this.cache.get(`flash-text:${position}`, request.url, async () =>
      JSON.stringify((await this.home.content()).flashTexts[position] ?? null),
    );
  }
}
